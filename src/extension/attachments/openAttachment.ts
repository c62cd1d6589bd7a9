import * as vscode from 'vscode';
import type { Attachment } from '../../core/attachments';

/** Shows what an attachment came from: the file at its lines, the Problems panel, or the resource's text as sent. */
export async function openAttachment(a: Attachment): Promise<void> {
  if (a.kind === 'resource') {
    // What was read is what was sent: shown as it was, not read again.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: a.text, language: 'markdown' }), { preview: true });
    return;
  }
  if (a.kind === 'problems') {
    if (a.uri !== null) await vscode.window.showTextDocument(vscode.Uri.parse(a.uri, true), { preview: true });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    return;
  }
  const selection = new vscode.Range(a.range.start - 1, 0, a.range.end - 1, Number.MAX_SAFE_INTEGER);
  await vscode.window.showTextDocument(vscode.Uri.parse(a.uri, true), { selection, preview: true });
}
