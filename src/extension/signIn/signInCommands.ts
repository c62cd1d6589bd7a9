import * as vscode from 'vscode';
import type { McpManager, ServerStatus } from '../../mcp';

/** A server picked among `candidates`, or undefined (none to pick, said so; or the user backed out). */
async function pickServer(candidates: readonly ServerStatus[], title: string, none: string): Promise<string | undefined> {
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(none);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((s) => ({ label: s.name, description: s.reason ?? (s.signedIn ? 'signed in' : s.state) })),
    { title, placeHolder: 'MCP server' },
  );
  return picked?.label;
}

/**
 * Sign In and Sign Out from the command palette, each with a picker of the servers it applies
 * to: those waiting for sign-in, and those Quiver reaches with tokens it holds. The Tools view's
 * own actions (on a server's row) run the same manager calls.
 */
export function registerSignInCommands(manager: McpManager, serverOf: (node: unknown) => string | undefined): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('quiver.signIn', async () => {
      const name = await pickServer(manager.statuses().filter((s) => s.state === 'signin'), 'Sign In to MCP Server', 'No MCP server is waiting for sign-in.');
      if (name !== undefined) await manager.signIn(name);
    }),
    vscode.commands.registerCommand('quiver.signOut', async () => {
      const name = await pickServer(manager.statuses().filter((s) => s.signedIn), 'Sign Out of MCP Server', 'No MCP server is signed in with Quiver.');
      if (name !== undefined) await manager.signOut(name);
    }),
    vscode.commands.registerCommand('quiver.server.signIn', async (node?: unknown) => {
      const name = serverOf(node);
      if (name !== undefined) await manager.signIn(name);
    }),
    vscode.commands.registerCommand('quiver.server.signOut', async (node?: unknown) => {
      const name = serverOf(node);
      if (name !== undefined) await manager.signOut(name);
    }),
  ];
}
