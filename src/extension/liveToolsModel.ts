import * as vscode from 'vscode';
import { issueTurningOff, resolveTool, type ConfigIssue, type IgnoredRunPolicy } from '../core/availability';
import { contextFillOf, type ContextFill } from '../core/context';
import type { StreamEvent } from '../core/stream';
import type { JsonSchema, ToolDefinition } from '../core/tools';
import { estimateToolTokens } from '../core/overhead';
import { buildToolOverview, type ToolOverview, type ToolOverviewItem } from '../core/overhead';
import type { BuiltinTools } from '../core/turn';
import { allBuiltins } from '../core/turn';
import { promotedTools, unloadedTools, upcomingPlan } from '../core/turn';
import { SETTINGS } from '../core/settings';
import { wireInputSchema } from '../core/wire';
import type { McpManager } from '../mcp';
import type { ToolSource } from '../core/tools';
import type { ContextWindows } from './contextWindows';
import type { RunApprovals } from './runApprovals';
import { readQuiverSetting, type AppliedToolsSetting, type ToolSettings } from './settings';
import type { ServerView, ToolsModel } from './toolsModel';

/**
 * MCP changes reach the Tools view, the status bar and `/use` completions at most this often:
 * seventy servers coming up fire ~140 changes, and each refresh walks every tool.
 */
const MCP_REFRESH_MS = 100;

export interface StreamView {
  events(): readonly StreamEvent[];
  readonly onDidChangeStream: vscode.Event<void>;
}

/**
 * The ToolsModel over the live sources: settings, the active conversation's stream and the MCP
 * catalogue. The overview is memoized only until the next change event of any of them.
 */
export class LiveToolsModel implements ToolsModel, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private memo: ToolOverview | undefined;
  private settingsMemo: AppliedToolsSetting | undefined;
  private readonly subscriptions: vscode.Disposable[];
  private readonly unsubscribeMcp: () => void;
  private mcpRefresh: NodeJS.Timeout | undefined;
  /** Per schema object: a catalogue keeps its schemas, so each is checked once, not on every repaint. */
  private readonly schemaIssues = new WeakMap<JsonSchema, string | null>();

  constructor(
    private readonly mcp: McpManager,
    /** Every tool source: the editor's own tools and the MCP servers (combineSources). */
    private readonly source: ToolSource,
    private readonly chat: StreamView,
    private readonly builtins: BuiltinTools,
    private readonly approvals: RunApprovals,
    private readonly windows: ContextWindows,
    /** Settings as applied, a right-click's write included before VS Code reads it back. */
    private readonly toolSettings: Pick<ToolSettings, 'applied' | 'onDidChangeWriting'>,
  ) {
    const invalidate = (): void => {
      this.memo = undefined;
      this.changed.fire();
    };
    // Only a settings edit (begun or read back) or a new approval changes what settings apply; MCP and stream changes do not.
    const settingsChanged = (): void => {
      this.settingsMemo = undefined;
      invalidate();
    };
    // Reads stay exact at once (the memo goes now); only the change event waits for the batch.
    this.unsubscribeMcp = source.onDidChange(() => {
      this.memo = undefined;
      this.mcpRefresh ??= setTimeout(() => {
        this.mcpRefresh = undefined;
        invalidate();
      }, MCP_REFRESH_MS);
    });
    this.subscriptions = [
      chat.onDidChangeStream(invalidate),
      approvals.onDidChange(settingsChanged),
      toolSettings.onDidChangeWriting(settingsChanged),
      windows.onDidChange(invalidate),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS.tools.key)) settingsChanged();
        else if (e.affectsConfiguration(SETTINGS.model.key)) invalidate();
      }),
    ];
  }

  overview(): ToolOverview {
    this.memo ??= this.compute();
    return this.memo;
  }

  servers(): readonly ServerView[] {
    return this.mcp.statuses().map((s) => ({ name: s.name, status: s.state, toolCount: s.toolCount, listedAt: s.catalogueListedAt, signedIn: s.signedIn, ...(s.reason ? { reason: s.reason } : {}) }));
  }

  contextFill(): ContextFill | undefined {
    return contextFillOf(this.chat.events(), (model) => this.windows.sizeOf(model));
  }

  wireSchemaIssueOf(tool: ToolDefinition): string | undefined {
    let issue = this.schemaIssues.get(tool.inputSchema);
    if (issue === undefined) {
      issue = wireInputSchema(tool.inputSchema).issue ?? null;
      this.schemaIssues.set(tool.inputSchema, issue);
    }
    return issue ?? undefined;
  }

  /** The window of the model the next request goes to (`quiver.model`). */
  contextWindowTokens(): number {
    return this.windows.sizeOf(readQuiverSetting('model').value);
  }

  /** Problems in `quiver.tools` as written, for the log and a notification. */
  settingsIssues(): readonly ConfigIssue[] {
    return this.settings().parsed.issues;
  }

  settingsIssueOf(tool: ToolDefinition): ConfigIssue | undefined {
    const { parsed } = this.settings();
    return issueTurningOff(parsed.value, parsed.issues, tool);
  }

  ignoredRunPolicyOf(item: ToolOverviewItem): IgnoredRunPolicy | undefined {
    // The conversation may let it run unattended all the same (`/set tools.NAME.run unattended`).
    return item.run === 'ask' ? this.settings().ignoredRunPolicyOf(item.tool) : undefined;
  }

  ignoredRunPolicies(): readonly IgnoredRunPolicy[] {
    return this.settings().applied.ignored;
  }

  dispose(): void {
    clearTimeout(this.mcpRefresh);
    this.unsubscribeMcp();
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }

  private settings(): AppliedToolsSetting {
    this.settingsMemo ??= this.toolSettings.applied(this.approvals.trust());
    return this.settingsMemo;
  }

  private compute(): ToolOverview {
    const events = this.chat.events();
    const mcpTools = this.source.tools();
    const settingsTools = this.settings().value;
    const plan = upcomingPlan({
      events,
      mcpTools,
      builtins: this.builtins.definitions,
      runningServers: this.source.runningServers(),
      settingsTools,
    });
    return buildToolOverview({
      catalogue: [...allBuiltins(this.builtins.definitions), ...mcpTools],
      plan,
      promoted: promotedTools(events, plan),
      unloaded: unloadedTools(events, plan, settingsTools),
      settingsAvailability: (tool) => resolveTool(this.settings().parsed.value, tool).availability,
      estimateTokens: estimateToolTokens,
    });
  }
}
