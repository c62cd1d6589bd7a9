import * as vscode from 'vscode';
import type { McpManager, ServerStatus } from '../../mcp';
import type { ChatNotices } from '../settingsIssueReporter';

/** What the user reads of a server waiting for sign-in, in the editor's notification and the chat alike. */
export function signInNeededText(server: string): string {
  return `MCP server "${server}" needs you to sign in before Quiver can list its tools: click its "Sign in required" row in the Tools view, or run Quiver: Sign In to MCP Server….`;
}

/**
 * Tells the user once per server and window that a server waits for sign-in (the Tools view
 * shows it for as long as it does), with the action that does it: in a notification, which may
 * be gone into the notification centre before anyone looks, and in the chat, which shows it
 * when it next opens (withdrawn unseen if the server signs in first).
 */
export function watchSignInNeeds(manager: McpManager, notices: ChatNotices): vscode.Disposable {
  const told = new Set<string>();
  const notify = (status: ServerStatus): void => {
    const key = `signin:${status.name}`;
    if (status.state !== 'signin') {
      notices.withdrawNotice(key);
      return;
    }
    if (told.has(status.name)) return;
    told.add(status.name);
    notices.showNotice(key, 'info', signInNeededText(status.name));
    void vscode.window.showInformationMessage(signInNeededText(status.name), 'Sign In').then((choice) => {
      if (choice === 'Sign In') return manager.signIn(status.name);
      return undefined;
    });
  };
  for (const status of manager.statuses()) notify(status);
  return { dispose: manager.onDidChangeStatus(notify) };
}
