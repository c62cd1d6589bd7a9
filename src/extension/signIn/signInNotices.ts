import * as vscode from 'vscode';
import type { McpManager } from '../../mcp/mcpManager';
import type { ServerStatus } from '../../mcp/serverStatus';

/**
 * Tells the user once per server and window that a server waits for sign-in (the Tools view
 * shows it for as long as it does), with the action that does it.
 */
export function watchSignInNeeds(manager: McpManager): vscode.Disposable {
  const told = new Set<string>();
  const notify = (status: ServerStatus): void => {
    if (status.state !== 'signin' || told.has(status.name)) return;
    told.add(status.name);
    void vscode.window.showInformationMessage(`MCP server "${status.name}" needs you to sign in before Quiver can list its tools.`, 'Sign In').then((choice) => {
      if (choice === 'Sign In') return manager.signIn(status.name);
      return undefined;
    });
  };
  for (const status of manager.statuses()) notify(status);
  return { dispose: manager.onDidChangeStatus(notify) };
}
