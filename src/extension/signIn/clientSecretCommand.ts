import * as vscode from 'vscode';
import { clientSecretKey, type McpManager, type RemoteServerConfig } from '../../mcp';

/**
 * Quiver: Set MCP Client Secret…: the secret of an app the user registered with a service
 * (`oauth.clientId` in settings) goes to VS Code's secret storage instead of settings.json. An
 * empty answer removes it. The server then starts again with it.
 */
export async function setClientSecret(servers: readonly RemoteServerConfig[], manager: McpManager, secrets: vscode.SecretStorage): Promise<void> {
  const registered = servers.filter((s) => s.oauth?.clientId !== undefined);
  if (registered.length === 0) {
    await vscode.window.showInformationMessage('No MCP server has "oauth": { "clientId": … } in its settings: a client secret goes with the client ID of an app you registered with the service.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    registered.map((s) => ({ label: s.name, description: s.url, detail: `client ID ${s.oauth?.clientId ?? ''}${s.oauth?.clientSecret === undefined ? '' : ' — settings give "oauth.clientSecret", which wins over this one'}`, server: s })),
    { title: 'Set MCP Client Secret' },
  );
  if (picked === undefined) return;
  const secret = await vscode.window.showInputBox({ title: `Client secret of ${picked.server.name}`, prompt: 'Kept in VS Code\'s secret storage. Leave empty to remove it.', password: true, ignoreFocusOut: true });
  if (secret === undefined) return;
  const key = clientSecretKey(picked.server.url);
  if (secret === '') await secrets.delete(key);
  else await secrets.store(key, secret);
  await manager.restart(picked.server.name);
}
