import * as vscode from 'vscode';
import { renderOverheadReport } from '../core/overhead';
import { requestUsageOf, resultCostsOf } from '../core/overhead';
import { searchActivity } from '../core/search';
import type { StreamEvent } from '../core/stream';
import { showMarkdownPreview } from './markdownPreview';
import type { ToolsModel } from './toolsModel';

// package.json activates Quiver on this scheme: a preview restored with the window asks for the document before startup has finished.
const SCHEME = 'quiver-overhead';
const URI = vscode.Uri.from({ scheme: SCHEME, path: '/Quiver tool overhead.md' });

/** The open conversation as the breakdown needs it. */
export interface ConversationView {
  events(): readonly StreamEvent[];
  snapshot(): { readonly conversation: { readonly title: string } };
}

/**
 * The breakdown the status bar opens: a read-only virtual markdown document, shown as a
 * preview, rebuilt from the tools model and the open conversation whenever either changes.
 * Nothing in it acts on a keypress; the actions are links to places that act.
 */
export class OverheadDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly tools: ToolsModel,
    private readonly conversation: ConversationView,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  }

  provideTextDocumentContent(): string {
    const fill = this.tools.contextFill();
    return renderOverheadReport({
      overview: this.tools.overview(),
      activity: searchActivity(this.conversation.events()),
      contextWindowTokens: this.tools.contextWindowTokens(),
      conversationTitle: this.conversation.snapshot().conversation.title,
      requests: requestUsageOf(this.conversation.events()),
      results: resultCostsOf(this.conversation.events()),
      ...(fill !== undefined ? { contextFill: fill } : {}),
    });
  }

  /**
   * The tools or the conversation changed: an open breakdown follows. VS Code drops a virtual
   * document no editor shows (the preview reads it but keeps no editor on it) and ignores a
   * change fired for a dropped one; opened again, the document starts over at the version the
   * preview already rendered, so the preview is told to render again.
   */
  refresh(): void {
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === URI.toString())) this.changed.fire(URI);
    else if (previewTabOpen()) void this.reopenForPreview();
  }

  private async reopenForPreview(): Promise<void> {
    try {
      await vscode.workspace.openTextDocument(URI);
      await vscode.commands.executeCommand('markdown.preview.refresh');
    } catch {
      // The preview keeps what it showed; the next change tries again.
    }
  }

  show(): Promise<void> {
    return showMarkdownPreview(URI);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}

/** Whether the breakdown's preview tab is open in any editor group (its label names the document). */
function previewTabOpen(): boolean {
  const name = URI.path.slice(1);
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.label.includes(name)));
}
