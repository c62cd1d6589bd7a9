import * as vscode from 'vscode';

/**
 * Opens a markdown document (a read-only virtual one: Describe, the breakdown) as its rendered
 * preview; as text only where the built-in markdown extension is missing.
 */
export async function showMarkdownPreview(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  // The built-in markdown extension registers its preview command only once activated, which the command itself does.
  if (vscode.extensions.getExtension('vscode.markdown-language-features')) await vscode.commands.executeCommand('markdown.showPreview', uri);
  else await vscode.window.showTextDocument(doc, { preview: true });
}
