import * as vscode from 'vscode';
import { serverDefaultsKey, type Availability } from '../core/availability';
import { costliestServer } from '../core/overheadBreakdown';
import { allItems } from '../core/toolOverview';
import { ownsToolKey } from '../mcp/qualifiedNames';
import { readToolsConfig, writeServerAvailability, writeToolAvailability } from './settings';
import type { ToolsTreeNode } from './toolsTree';
import type { ToolsModel } from './toolsModel';

async function makeTool(model: ToolsModel, node: ToolsTreeNode | undefined, availability: Availability): Promise<void> {
  if (node?.kind === 'tool') {
    if (node.item.allowToggle === 'never') {
      void vscode.window.showErrorMessage(`${node.item.tool.name} is locked (allow_toggle is "never"): change its "enable" in settings.json to move it.`);
      return;
    }
    const scope = await writeToolAvailability(node.item.tool.name, availability);
    vscode.window.setStatusBarMessage(`Quiver: ${node.item.tool.name} is now ${availability} (${scope} settings)`, 4000);
    return;
  }
  if (node?.kind === 'server') await makeServer(model, node.server, availability);
  if (node?.kind === 'serverStatus') await makeServer(model, node.server.name, availability);
}

/**
 * Every tool of the server except locked ones, in one settings write: the tools it lists,
 * and the tool entries written for it (all there is to go on while it is not running).
 */
async function makeServer(model: ToolsModel, server: string, availability: Availability): Promise<void> {
  const listed = allItems(model.overview())
    .filter((i) => i.tool.server === server && i.allowToggle !== 'never')
    .map((i) => i.tool.name);
  const owns = ownsToolKey(server);
  const written = [...readToolsConfig()]
    .filter(([key, entry]) => key !== serverDefaultsKey(server) && owns(key) && entry.allowToggle !== 'never')
    .map(([key]) => key);
  const scope = await writeServerAvailability(server, [...new Set([...listed, ...written])], availability);
  vscode.window.setStatusBarMessage(`Quiver: every tool of ${server} is now ${availability} (${scope} settings)`, 4000);
}

async function describeTool(node: ToolsTreeNode | undefined): Promise<void> {
  if (node?.kind !== 'tool') return;
  const { tool } = node.item;
  const body = [
    `# ${tool.name}`, '',
    `Server: ${tool.server ?? 'Quiver (builtin)'} · tool: ${tool.toolName} · availability: ${node.item.availability} · ~${node.item.tokens} tokens (estimate)`, '',
    tool.description || '_No description._', '',
    '## Input schema', '', '```json', JSON.stringify(tool.inputSchema, null, 2), '```',
  ].join('\n');
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: body });
  await vscode.window.showTextDocument(doc, { preview: true });
}

async function makeCostliestDiscoverable(model: ToolsModel): Promise<void> {
  const server = costliestServer(model.overview());
  if (server) await makeServer(model, server, 'discoverable');
  else void vscode.window.showInformationMessage('Quiver: no MCP server has tools on.');
}

export function registerToolCommands(model: ToolsModel): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('quiver.tool.makeOn', (n?: ToolsTreeNode) => makeTool(model, n, 'on')),
    vscode.commands.registerCommand('quiver.tool.makeDiscoverable', (n?: ToolsTreeNode) => makeTool(model, n, 'discoverable')),
    vscode.commands.registerCommand('quiver.tool.makeOff', (n?: ToolsTreeNode) => makeTool(model, n, 'off')),
    vscode.commands.registerCommand('quiver.tool.describe', describeTool),
    vscode.commands.registerCommand('quiver.tool.copyName', async (n?: ToolsTreeNode) => {
      if (n?.kind === 'tool') await vscode.env.clipboard.writeText(n.item.tool.name);
    }),
    vscode.commands.registerCommand('quiver.makeCostliestServerDiscoverable', () => makeCostliestDiscoverable(model)),
  ];
}
