import * as vscode from 'vscode';
import { textAfter, textBefore, type FileChange } from '../../core/edits';

const SCHEME = 'quiver-change';

/**
 * Shows a change as the editor's own diff (read-only texts served under `quiver-change:`): the
 * file as it was on the left, as the change leaves it on the right.
 */
export class ChangeDiffs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private next = 0;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }

  /** Opens the diff of `change`; `state` names its side in the title (proposed, applied, undone…). Returns the diff's right side. */
  async open(change: FileChange, state: string, options: { readonly preserveFocus: boolean } = { preserveFocus: false }): Promise<vscode.Uri> {
    const left = this.serve(change.kind === 'rename' ? change.fromLabel : change.label, textBefore(change) ?? '');
    const right = this.serve(change.label, textAfter(change) ?? '');
    const title = change.kind === 'rename' ? `${change.fromLabel} → ${change.label} (${state})` : `${change.label} (${state})`;
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true, preserveFocus: options.preserveFocus });
    return right;
  }

  /** Closes the diff tabs whose right side is one of `rights` (a proposal answered: its diff has done its job). */
  async close(rights: readonly vscode.Uri[]): Promise<void> {
    const wanted = new Set(rights.map((u) => u.toString()));
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && wanted.has(t.input.modified.toString()));
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
    for (const uri of rights) this.texts.delete(uri.query);
  }

  private serve(label: string, text: string): vscode.Uri {
    const key = String(this.next++);
    this.texts.set(key, text);
    return vscode.Uri.from({ scheme: SCHEME, path: `/${label}`, query: key });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }
}
