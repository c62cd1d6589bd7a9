import type * as vscode from 'vscode';
import type { ConfigIssue, IgnoredRunPolicy } from '../core/availability';
import type { ContextFill } from '../core/context';
import type { ToolDefinition } from '../core/tools';
import type { ToolOverview, ToolOverviewItem } from '../core/overhead';
import type { ServerState } from '../mcp/serverStatus';

export type ServerStatusKind = ServerState;

export interface ServerView {
  readonly name: string;
  readonly status: ServerStatusKind;
  /** Why a server is not running, phrased for the user. */
  readonly reason?: string;
  readonly toolCount: number;
  /** When its tools were listed (ms since the epoch): for an idle server, the date of its cached catalogue. */
  readonly listedAt: number | undefined;
  /** Reached with OAuth tokens Quiver holds: Sign Out applies. */
  readonly signedIn: boolean;
}

/**
 * What the tools tree and the status bar render. It derives everything on demand from the
 * settings, the active conversation's stream and the MCP catalogue; it caches nothing, so
 * the UI cannot drift from what the turn loop sends.
 */
export interface ToolsModel {
  overview(): ToolOverview;
  servers(): readonly ServerView[];
  /** How full the context window was at the active conversation's last request, when one was answered. */
  contextFill(): ContextFill | undefined;
  /** The problem in `quiver.tools` that leaves `tool` off: an entry it takes its availability from cannot be read. */
  settingsIssueOf(tool: ToolDefinition): ConfigIssue | undefined;
  /** A workspace's `"run": "unattended"` that would let the tool run without asking, which Quiver ignores. */
  ignoredRunPolicyOf(item: ToolOverviewItem): IgnoredRunPolicy | undefined;
  /** Why the tool's definition cannot go to the model (an input schema the Messages API refuses); undefined when it can. */
  wireSchemaIssueOf(tool: ToolDefinition): string | undefined;
  /** The context window of the model the next request goes to. */
  contextWindowTokens(): number;
  readonly onDidChange: vscode.Event<void>;
}
