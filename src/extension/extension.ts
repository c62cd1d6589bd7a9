import { join } from 'node:path';
import * as vscode from 'vscode';
import { ToolIndex } from '../core/search';
import { allItems } from '../core/overhead';
import { combineSources } from '../core/tools';
import { ConversationStore } from '../core/stream';
import { createSearchBuiltins } from '../core/turn';
import { SETTINGS, SETTINGS_SECTION } from '../core/settings';
import { allowAlways } from './alwaysAllow';
import { ApiKeyStore } from './apiKey';
import { registerAttachCommands } from './attachments/attachCommands';
import { ChatSessionController, type Completions } from './chatSessionController';
import { ChatViewProvider } from './chatViewProvider';
import { ConfiguredModelClient } from './configuredModelClient';
import { ContextWindows } from './contextWindows';
import { ChangeDiffs } from './editorTools/changeDiffs';
import { EditorToolSource } from './editorTools/editorToolSource';
import { TurnChangeActions } from './editorTools/turnChanges';
import { registerChooseModelCommand } from './chooseModelCommand';
import { LiveToolsModel } from './liveToolsModel';
import type { McpFeatures } from './mcpFeatures';
import { createMcpHost, type McpHost } from './mcpHost';
import { OverheadDocument } from './overheadDocument';
import { OverheadStatus } from './overheadStatus';
import { ResultDocuments } from './resultDocuments';
import { RunApprovals } from './runApprovals';
import { reportStartup } from './startupReport';
import { searchToolsCommand } from './searchToolsCommand';
import { SettingsIssueReporter } from './settingsIssueReporter';
import { setClientSecret } from './signIn/clientSecretCommand';
import { registerSignInCommands } from './signIn/signInCommands';
import { watchSignInNeeds } from './signIn/signInNotices';
import { ToolSettings } from './settings';
import { registerToolCommands } from './toolCommands';
import { ToolDescriptions } from './toolDescriptions';
import { ToolsTreeProvider, type ToolsTreeNode } from './toolsTree';

let mcpHost: McpHost | undefined;

/** The composition root: every piece is built here and handed what it needs; nothing is global. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Quiver', { log: true });
  const keys = new ApiKeyStore(context.secrets);
  mcpHost = createMcpHost(context, log);
  const manager = mcpHost.manager;
  reportStartup(manager, log);
  const diffs = new ChangeDiffs();
  const editorTools = new EditorToolSource(diffs, log);
  // The editor's own tools go through the very path MCP tools take: one source for the turn loop and the Tools view.
  const source = combineSources([editorTools], manager);
  const builtins = createSearchBuiltins();
  const settings = new ToolSettings(context.globalStorageUri);
  const approvals = new RunApprovals(context.globalState);
  const store = new ConversationStore(join(context.globalStorageUri.fsPath, 'conversations'));
  const results = new ResultDocuments(store);
  const chat = await ChatSessionController.create({
    store,
    source,
    builtins,
    keys,
    memento: context.workspaceState,
    log,
    alwaysAllow: (tool) => allowAlways(tool, settings, approvals),
    runTrust: () => approvals.trust(),
    openResult: (conversation, ref) => results.open(conversation, ref),
    changes: new TurnChangeActions(editorTools, diffs),
    proposals: {
      show: (callId) => void editorTools.showProposal(callId, 0, true),
      close: (callId) => void editorTools.closeProposal(callId),
    },
  });
  const windows = new ContextWindows((model, signal) => new ConfiguredModelClient(keys).capabilities(model, signal));
  const tools = new LiveToolsModel(manager, source, chat, builtins, approvals, windows, settings);
  const tree = new ToolsTreeProvider(tools);
  const status = new OverheadStatus(tools);
  const chatView = new ChatViewProvider(context.extensionUri, chat, log, manager);
  const breakdown = new OverheadDocument(tools, chat);
  const descriptions = new ToolDescriptions(tools);
  const searchIndex = new ToolIndex();

  const settingsIssues = new SettingsIssueReporter({
    log,
    notices: chatView,
    tools,
    reveal: async (key) => {
      if (key === undefined) await vscode.commands.executeCommand('workbench.action.openSettingsJson');
      else await settings.revealToolEntry(key);
    },
  });

  context.subscriptions.push(
    log, diffs, editorTools, keys, settings, approvals, windows, tools, status, chat, chatView, tree, breakdown, descriptions, results,
    vscode.window.registerWebviewViewProvider(ChatViewProvider.viewType, chatView),
    vscode.window.createTreeView<ToolsTreeNode>('quiver.tools', { treeDataProvider: tree, showCollapseAll: true }),
    tools.onDidChange(() => {
      tree.refresh();
      status.update();
      breakdown.refresh();
      void chat.refreshEnvironment(completionsOf(tools, manager));
    }),
    keys.onDidChange(() => void chat.refreshEnvironment()),
    approvals.onDidChange(() => settingsIssues.checkTools()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS_SECTION)) settingsIssues.checkRegistered();
      if (e.affectsConfiguration(SETTINGS.tools.key)) settingsIssues.checkTools();
      if (e.affectsConfiguration(SETTINGS.model.key)) void chat.refreshEnvironment();
    }),
    ...registerToolCommands({ model: tools, settings, descriptions, approvals, conversation: { setToolAvailability: (name, availability) => chat.setOption(`tools.${name}.enable`, availability) } }),
    ...registerAttachCommands(chat, chatView, manager),
    vscode.commands.registerCommand('quiver.newChat', async () => {
      await chat.newChat();
      chatView.show();
    }),
    vscode.commands.registerCommand('quiver.focusChat', () => chatView.focusComposer()),
    vscode.commands.registerCommand('quiver.setApiKey', () => keys.promptAndStore()),
    registerChooseModelCommand(keys),
    vscode.commands.registerCommand('quiver.searchTools', () => searchToolsCommand(tools, searchIndex)),
    vscode.commands.registerCommand('quiver.restartServer', async () => {
      const picked = await vscode.window.showQuickPick(tools.servers().map((s) => ({ label: s.name, description: s.reason ? `${s.status}: ${s.reason}` : s.status })), { title: 'Restart MCP Server' });
      if (picked) await manager.restart(picked.label);
    }),
    vscode.commands.registerCommand('quiver.server.restart', async (node?: ToolsTreeNode) => {
      const name = serverOfNode(node);
      if (name) await manager.restart(name);
    }),
    ...registerSignInCommands(manager, (node) => serverOfNode(node as ToolsTreeNode | undefined)),
    watchSignInNeeds(manager, chatView),
    vscode.commands.registerCommand('quiver.setMcpClientSecret', () => setClientSecret(mcpHost?.remoteServers() ?? [], manager, context.secrets)),
    vscode.commands.registerCommand('quiver.restartAllServers', () => manager.restartAll()),
    vscode.commands.registerCommand('quiver.showLog', () => log.show()),
    vscode.commands.registerCommand('quiver.showOverhead', () => breakdown.show()),
    vscode.commands.registerCommand('quiver.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:quiver-dev.quiver')),
  );
  settingsIssues.checkRegistered();
  settingsIssues.checkTools();
  await chat.refreshEnvironment(completionsOf(tools, manager));
}

function serverOfNode(node: ToolsTreeNode | undefined): string | undefined {
  return node?.kind === 'server' ? node.server : node?.kind === 'serverStatus' ? node.server.name : undefined;
}

function completionsOf(model: LiveToolsModel, mcp: McpFeatures): Completions {
  return {
    toolCompletions: allItems(model.overview()).map((i) => ({ name: i.tool.name, detail: i.availability })),
    promptCompletions: mcp.prompts().map((p) => ({ name: `${p.server}.${p.name}`, detail: p.title ?? p.description ?? `a prompt of ${p.server}` })),
    resourceCompletions: mcp.resources().map((r) => ({ name: `${r.server}:${r.uri}`, detail: r.name })),
  };
}

export async function deactivate(): Promise<void> {
  await mcpHost?.dispose();
  mcpHost = undefined;
}
