import * as vscode from 'vscode';
import { changesOutside, serverDefaultsKey, serverToggleConfirmation, type AllowToggle, type Availability } from '../core/availability';
import { costliestServer } from '../core/overhead';
import type { ToolDefinition } from '../core/tools';
import { allItems, type ToolOverviewItem } from '../core/overhead';
import { ownsToolKey } from '../mcp/qualifiedNames';
import type { RunApprovals } from './runApprovals';
import { readToolsConfig, type ToolSettings } from './settings';
import type { ToolDescriptions } from './toolDescriptions';
import type { ToolsTreeNode } from './toolsTree';
import type { ToolsModel } from './toolsModel';

/** What the tool commands act through. */
export interface ToolCommandDeps {
  readonly model: ToolsModel;
  readonly settings: ToolSettings;
  readonly descriptions: ToolDescriptions;
  readonly approvals: RunApprovals;
  /** The open conversation's own toggle (`/set tools.NAME.enable=…`): what a search card's Unload undoes. */
  readonly conversation: { setToolAvailability(name: string, availability: Availability): Promise<void> };
}

/** A settings write that fails (a file with errors or unsaved changes) says why, in words. */
async function showingErrors(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (err) {
    void vscode.window.showErrorMessage(`Quiver: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function makeTool(deps: ToolCommandDeps, node: ToolsTreeNode | undefined, availability: Availability): Promise<void> {
  if (node?.kind === 'tool') {
    if (node.item.unloadedInConversation && availability !== 'off') await reloadInConversation(deps, node.item, availability);
    else await makeOneTool(deps.settings, node.item.tool, node.item.allowToggle, availability);
  }
  if (node?.kind === 'server') await makeServer(deps, node.server, availability, node.availability);
  // A server off by the user's choice is listed apart with all its tools off; another not running shows no group.
  if (node?.kind === 'serverStatus') await makeServer(deps, node.server.name, availability, node.server.status === 'off' ? 'off' : undefined);
}

async function makeOneTool(settings: ToolSettings, tool: ToolDefinition, allowToggle: AllowToggle, availability: Availability): Promise<void> {
  if (allowToggle === 'never') {
    void vscode.window.showErrorMessage(`${tool.name} is locked (allow_toggle is "never"): change its "enable" in settings.json to move it.`);
    return;
  }
  const scope = await settings.writeToolAvailability(tool, availability);
  vscode.window.setStatusBarMessage(`Quiver: ${tool.name} is now ${availability} (${scope} settings)`, 4000);
}

/**
 * A tool this conversation unloaded (a search card's Unload) is off by the conversation's own
 * delta, not by settings: writing settings alone would change nothing here. It is toggled back in
 * this conversation, and settings are written as well only when they say off too.
 */
async function reloadInConversation(deps: ToolCommandDeps, item: ToolOverviewItem, availability: Availability): Promise<void> {
  const { tool } = item;
  if (item.allowToggle === 'never') {
    void vscode.window.showErrorMessage(`${tool.name} is locked (allow_toggle is "never"): change its "enable" in settings.json to move it.`);
    return;
  }
  await deps.conversation.setToolAvailability(tool.name, availability);
  const settings = item.settingsAvailability;
  if (settings === 'off') await makeOneTool(deps.settings, tool, item.allowToggle, availability);
  const where = settings === 'off'
    ? `settings said off too, so they now say ${availability} as well`
    : settings === undefined ? 'settings are unchanged' : `settings still say ${settings}; other conversations follow them`;
  void vscode.window.showInformationMessage(`Quiver: ${tool.name} was unloaded in this conversation; it is ${availability} again in this conversation (${where}).`);
}

/**
 * Every tool of the server except locked ones, in one settings write: the tools it lists,
 * and the tool entries written for it (all there is to go on while it is not running).
 * `group`: the Tools view group the toggle was made from. A toggle that would also change tools
 * shown in another group lists them in a modal first, and writes nothing unless the user agrees.
 */
async function makeServer({ model, settings }: ToolCommandDeps, server: string, availability: Availability, group: Availability | undefined): Promise<void> {
  const items = allItems(model.overview()).filter((i) => i.tool.server === server);
  const listed = items.filter((i) => i.allowToggle !== 'never').map((i) => i.tool.name);
  const owns = ownsToolKey(server);
  const written = [...readToolsConfig()]
    .filter(([key]) => key !== serverDefaultsKey(server) && owns(key))
    .map(([key, entry]) => ({ key, locked: entry.allowToggle === 'never' }));
  const toolKeys = [...new Set([...listed, ...written.filter((w) => !w.locked).map((w) => w.key)])];
  if (group !== undefined) {
    // Every tool of the server counts, locked ones too: a server entry can move one that inherits from it.
    const tools = [...new Set([...items.map((i) => i.tool.name), ...written.map((w) => w.key)])].map((name) => ({ name, server }));
    const { scope, changes } = settings.serverAvailabilityChanges(server, toolKeys, tools, availability);
    if (changesOutside(changes, group).length > 0) {
      const ask = serverToggleConfirmation(server, availability, group, changes, scope);
      const choice = await vscode.window.showWarningMessage(ask.message, { modal: true, detail: ask.detail }, ask.action);
      if (choice !== ask.action) return;
    }
  }
  const scope = await settings.writeServerAvailability(server, toolKeys, availability);
  vscode.window.setStatusBarMessage(`Quiver: every tool of ${server} is now ${availability} (${scope} settings)`, 4000);
}

async function makeCostliestDiscoverable(deps: ToolCommandDeps): Promise<void> {
  const server = costliestServer(deps.model.overview());
  // The command is about the tools on: one that would also make tools that are off discoverable asks first.
  if (server) await makeServer(deps, server, 'discoverable', 'on');
  else void vscode.window.showInformationMessage('Quiver: no MCP server has tools on.');
}

/**
 * Lists the tools the user let run without asking ("Always allow" writes User settings, or global
 * state in a dev container: see RunApprovals) and takes back the ones the user picks, so they ask again.
 */
async function resetApprovals({ settings, approvals }: ToolCommandDeps): Promise<void> {
  const keys = approvals.inUserSettings ? settings.userUnattendedKeys() : approvals.keys();
  const where = approvals.inUserSettings ? 'User settings' : 'approvals Quiver keeps for dev containers';
  if (keys.length === 0) {
    void vscode.window.showInformationMessage(`Quiver: no tool runs without asking: your ${where} give no tool "run": "unattended".`);
    return;
  }
  const picked = await vscode.window.showQuickPick(keys.map((key) => ({ label: key, picked: true })), {
    title: `Tools that run without asking (${where})`,
    placeHolder: 'Pick the tools that should ask before each call again',
    canPickMany: true,
  });
  if (!picked || picked.length === 0) return;
  const chosen = picked.map((p) => p.label);
  if (approvals.inUserSettings) await settings.removeUserRunPolicies(chosen);
  else await approvals.remove(chosen);
  vscode.window.setStatusBarMessage(`Quiver: ${chosen.length} tool approval${chosen.length === 1 ? '' : 's'} reset; ${chosen.length === 1 ? 'it asks' : 'they ask'} before each call again`, 4000);
}

export function registerToolCommands(deps: ToolCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('quiver.tool.makeOn', (n?: ToolsTreeNode) => showingErrors(() => makeTool(deps, n, 'on'))),
    vscode.commands.registerCommand('quiver.tool.makeDiscoverable', (n?: ToolsTreeNode) => showingErrors(() => makeTool(deps, n, 'discoverable'))),
    vscode.commands.registerCommand('quiver.tool.makeOff', (n?: ToolsTreeNode) => showingErrors(() => makeTool(deps, n, 'off'))),
    vscode.commands.registerCommand('quiver.tool.describe', async (n?: ToolsTreeNode) => {
      if (n?.kind === 'tool') await deps.descriptions.show(n.item.tool.name);
    }),
    vscode.commands.registerCommand('quiver.tool.openSettings', async (n?: ToolsTreeNode) => {
      if (n?.kind === 'tool') await deps.settings.revealToolEntry(deps.model.settingsIssueOf(n.item.tool)?.key ?? n.item.tool.name);
    }),
    vscode.commands.registerCommand('quiver.tool.copyName', async (n?: ToolsTreeNode) => {
      if (n?.kind === 'tool') await vscode.env.clipboard.writeText(n.item.tool.name);
    }),
    vscode.commands.registerCommand('quiver.resetToolApprovals', () => showingErrors(() => resetApprovals(deps))),
    vscode.commands.registerCommand('quiver.makeCostliestServerDiscoverable', () => showingErrors(() => makeCostliestDiscoverable(deps))),
  ];
}
