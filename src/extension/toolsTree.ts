import * as vscode from 'vscode';
import { EDITOR_SOURCE } from '../core/editorTools';
import type { Availability, ConfigIssue, IgnoredRunPolicy } from '../core/availability';
import { summarize } from '../core/search';
import { formatTokens, UNLOADED_IN_CONVERSATION, unloadedExplanation, type ToolOverviewItem } from '../core/overhead';
import { whyToolAsks } from './ignoredRunPolicyText';
import type { ServerView, ToolsModel } from './toolsModel';

export type ToolsTreeNode =
  | { readonly kind: 'group'; readonly availability: Availability }
  | { readonly kind: 'server'; readonly availability: Availability; readonly server: string }
  | { readonly kind: 'tool'; readonly item: ToolOverviewItem }
  /** Servers on their way up: their tools fill in the groups as each arrives. */
  | { readonly kind: 'starting' }
  | { readonly kind: 'problems' }
  | { readonly kind: 'serverStatus'; readonly server: ServerView };

const GROUP_LABELS: Record<Availability, string> = { on: 'On', discoverable: 'Discoverable', off: 'Off' };
export const GROUP_ICONS: Record<Availability, string> = { on: 'pass-filled', discoverable: 'search', off: 'circle-slash' };
/** Builtins have no server; they are listed under Quiver's own name. */
const BUILTIN_SERVER_LABEL = 'Quiver';

const serverOf = (item: ToolOverviewItem): string => item.tool.server ?? BUILTIN_SERVER_LABEL;
/** Failed, stopped or off: a server on its way up, or idle with its cached tools listed, is not "not running". */
const isNotRunning = (s: ServerView): boolean => s.status !== 'running' && s.status !== 'starting' && s.status !== 'idle';
const listedDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export class ToolsTreeProvider implements vscode.TreeDataProvider<ToolsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly model: ToolsModel) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }

  getChildren(node?: ToolsTreeNode): ToolsTreeNode[] {
    const overview = this.model.overview();
    if (!node) {
      const groups: ToolsTreeNode[] = (['on', 'discoverable', 'off'] as const).map((availability) => ({ kind: 'group', availability }));
      const servers = this.model.servers();
      const starting: ToolsTreeNode[] = servers.some((s) => s.status === 'starting') ? [{ kind: 'starting' }] : [];
      const problems: ToolsTreeNode[] = servers.some(isNotRunning) ? [{ kind: 'problems' }] : [];
      return [...groups, ...starting, ...problems];
    }
    switch (node.kind) {
      case 'group': {
        const servers = [...new Set(overview.groups[node.availability].map(serverOf))].sort(editorThenBuiltinsThenServers);
        return servers.map((server) => ({ kind: 'server', availability: node.availability, server }));
      }
      case 'server':
        return overview.groups[node.availability].filter((i) => serverOf(i) === node.server)
          .sort((a, b) => a.tool.name.localeCompare(b.tool.name))
          .map((item) => ({ kind: 'tool', item }));
      case 'starting':
        return this.model.servers().filter((s) => s.status === 'starting').map((server) => ({ kind: 'serverStatus', server }));
      case 'problems':
        return this.model.servers().filter(isNotRunning).map((server) => ({ kind: 'serverStatus', server }));
      default:
        return [];
    }
  }

  getTreeItem(node: ToolsTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'group': return this.groupItem(node.availability);
      case 'server': return this.serverItem(node.availability, node.server);
      case 'tool': {
        const notSent = this.model.wireSchemaIssueOf(node.item.tool);
        return node.item.availability === 'off'
          ? toolItem(node.item, this.model.settingsIssueOf(node.item.tool), undefined, notSent)
          : toolItem(node.item, undefined, this.model.ignoredRunPolicyOf(node.item), notSent);
      }
      case 'starting': {
        const servers = this.model.servers();
        const item = new vscode.TreeItem('Servers starting', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'group:starting';
        item.description = `${servers.filter((s) => s.status === 'starting').length} of ${servers.length}`;
        item.tooltip = 'Their tools join the groups above as each server comes up. A message that needs one of their tools waits for it.';
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        return item;
      }
      case 'problems': {
        const item = new vscode.TreeItem('Servers not running', vscode.TreeItemCollapsibleState.Expanded);
        item.id = 'group:problems';
        // A server off by the user's choice is no problem: warn only for the others.
        const troubled = this.model.servers().some((s) => isNotRunning(s) && s.status !== 'off' && s.status !== 'signin');
        item.iconPath = troubled ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')) : new vscode.ThemeIcon('circle-slash');
        return item;
      }
      case 'serverStatus': return serverStatusItem(node.server);
    }
  }

  private groupItem(availability: Availability): vscode.TreeItem {
    const items = this.model.overview().groups[availability];
    const item = new vscode.TreeItem(GROUP_LABELS[availability], availability === 'off' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.Expanded);
    item.id = `group:${availability}`;
    item.description = String(items.length);
    item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[availability]);
    item.contextValue = 'group';
    return item;
  }

  private serverItem(availability: Availability, server: string): vscode.TreeItem {
    const items = this.model.overview().groups[availability].filter((i) => serverOf(i) === server);
    const tokens = items.reduce((n, i) => n + i.tokens, 0);
    const item = new vscode.TreeItem(server, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `server:${availability}:${server}`;
    item.description = `${items.length} · ~${formatTokens(tokens)} tok`;
    item.iconPath = new vscode.ThemeIcon(server === BUILTIN_SERVER_LABEL ? 'sparkle' : server === EDITOR_SOURCE ? 'code' : 'server-process');
    if (server === EDITOR_SOURCE) item.tooltip = 'The editor\'s own tools: they read, search and edit this workspace through VS Code (every change reviewable as a diff and undoable) and run commands in its terminal.';
    const idle = this.model.servers().find((s) => s.name === server && s.status === 'idle');
    if (idle) {
      const when = idle.listedAt === undefined ? 'an earlier run' : listedDate.format(idle.listedAt);
      item.description += ` · not started`;
      item.tooltip = `${server} is not started: its tools are listed from the catalogue it gave on ${when}. The first call of one of them starts it.`;
      item.iconPath = new vscode.ThemeIcon('debug-pause');
    }
    const signedIn = this.model.servers().some((s) => s.name === server && s.signedIn);
    if (signedIn) item.tooltip = `${typeof item.tooltip === 'string' ? `${item.tooltip}\n\n` : ''}Signed in with OAuth; Sign Out (right-click) forgets the tokens.`;
    // `server-signedIn` adds Sign Out to what a server offers.
    // `editorServer`: availability moves like a server's, but there is no process to restart or sign in to.
    item.contextValue = server === BUILTIN_SERVER_LABEL ? 'builtins' : server === EDITOR_SOURCE ? 'editorServer' : signedIn ? 'server-signedIn' : 'server';
    return item;
  }
}

/** The editor's own tools first, then Quiver's builtins, then the MCP servers by name. */
function editorThenBuiltinsThenServers(a: string, b: string): number {
  const rank = (s: string): number => (s === EDITOR_SOURCE ? 0 : s === BUILTIN_SERVER_LABEL ? 1 : 2);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * `problem`: the unreadable setting that left this tool off; `ignored`: the workspace run policy
 * it does not run by; `notSent`: why its definition never reaches the model (see wireInputSchema).
 */
function toolItem(entry: ToolOverviewItem, problem: ConfigIssue | undefined, ignored: IgnoredRunPolicy | undefined, notSent: string | undefined): vscode.TreeItem {
  const { tool } = entry;
  const item = new vscode.TreeItem(tool.toolName, vscode.TreeItemCollapsibleState.None);
  item.id = `tool:${tool.name}`;
  if (problem) return invalidToolItem(item, entry, problem);
  const note = entry.promoted ? 'promoted in this conversation' : entry.unloadedInConversation ? UNLOADED_IN_CONVERSATION : undefined;
  item.description = `~${formatTokens(entry.tokens)} tok${note ? ` · ${note}` : ''}`;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`**${tool.name}** · ${entry.availability}${note ? ` (${note})` : ''}\n\n`);
  if (entry.unloadedInConversation) tooltip.appendMarkdown(`${escapeMarkdown(unloadedExplanation(entry))}\n\n`);
  tooltip.appendText(summarize(tool.description) || 'No description.');
  tooltip.appendMarkdown(`\n\n~${entry.tokens} tokens when offered (estimate) · allow_toggle: ${entry.allowToggle}`);
  if (ignored) {
    item.description += ' · asks: workspace approval ignored';
    tooltip.appendMarkdown(`\n\n${escapeMarkdown(whyToolAsks(ignored))}`);
  }
  if (notSent) {
    item.description += ' · not sent to the model';
    tooltip.appendMarkdown(`\n\n$(warning) ${escapeMarkdown(`Not sent to the model: ${notSent}.`)}`);
  }
  item.tooltip = tooltip;
  item.iconPath = notSent
    ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
    : new vscode.ThemeIcon(entry.promoted ? 'star-full' : entry.unloadedInConversation ? 'debug-disconnect' : ignored ? 'shield' : 'tools');
  // `tool-locked` hides the Make… items: a named toggle of a `never` tool is refused.
  item.contextValue = entry.allowToggle === 'never' ? 'tool-locked' : `tool-${entry.availability}`;
  return item;
}

/** Marked apart from the tools off by choice; a click opens settings.json at the entry to fix. */
function invalidToolItem(item: vscode.TreeItem, entry: ToolOverviewItem, problem: ConfigIssue): vscode.TreeItem {
  item.description = `off: invalid setting · ~${formatTokens(entry.tokens)} tok`;
  const tooltip = new vscode.MarkdownString(undefined, true);
  tooltip.appendMarkdown(`\`${entry.tool.name}\` is off because its setting cannot be read.\n\n`);
  tooltip.appendMarkdown(escapeMarkdown(`${problem.path}: ${problem.message}`));
  tooltip.appendMarkdown('\n\nClick to open settings.json at the entry.');
  item.tooltip = tooltip;
  item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
  item.contextValue = 'tool-invalid';
  const node: ToolsTreeNode = { kind: 'tool', item: entry };
  item.command = { command: 'quiver.tool.openSettings', title: 'Open Settings', arguments: [node] };
  return item;
}

/** A server waiting for the user to sign in: not a failure, and clicking it signs in. */
function signInItem(server: ServerView): vscode.TreeItem {
  const item = new vscode.TreeItem(server.name, vscode.TreeItemCollapsibleState.None);
  item.id = `status:${server.name}`;
  item.description = 'Sign in required';
  item.tooltip = server.reason ?? 'This server uses OAuth: sign in to list and use its tools.';
  item.iconPath = new vscode.ThemeIcon(STATUS_ICONS.signin);
  item.contextValue = 'serverStatus-signin';
  item.command = { command: 'quiver.server.signIn', title: 'Sign In', arguments: [{ kind: 'serverStatus', server } satisfies ToolsTreeNode] };
  return item;
}

/** Markdown-escaped text that keeps its plain spaces (appendText turns them into &nbsp;, so the JSON in it would not paste). */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

const STATUS_ICONS: Readonly<Record<ServerView['status'], string>> = {
  starting: 'loading~spin',
  running: 'check',
  idle: 'debug-pause',
  failed: 'error',
  stopped: 'debug-stop',
  off: 'circle-slash',
  signin: 'account',
};

function serverStatusItem(server: ServerView): vscode.TreeItem {
  if (server.status === 'signin') return signInItem(server);
  const item = new vscode.TreeItem(server.name, vscode.TreeItemCollapsibleState.None);
  item.id = `status:${server.name}`;
  item.description = server.reason ? `${server.status}: ${server.reason}` : server.status;
  item.tooltip = server.reason ?? server.status;
  item.iconPath = new vscode.ThemeIcon(STATUS_ICONS[server.status]);
  // `serverStatus-off` offers Make On / Make Discoverable, which start the server.
  item.contextValue = server.status === 'off' ? 'serverStatus-off' : 'serverStatus';
  return item;
}
