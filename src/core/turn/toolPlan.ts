import { computeToolSets, isLockedOff, resolveTool, type ResolvedTool, type ToolsConfig } from '../availability';
import { configAt } from '../stream/config';
import type { StreamEvent } from '../stream/events';
import { readResultRegistered, searchToolsRegistered } from '../stream/registration';
import { READ_RESULT_DEFINITION } from '../results/readResultTool';
import { READ_RESULT_NAME, type ToolDefinition } from '../tools/definitions';
import { orderTools } from './toolOrder';

export interface ToolPlanInput {
  readonly events: readonly StreamEvent[];
  /** MCP tools of running servers (ToolSource.tools()). */
  readonly mcpTools: readonly ToolDefinition[];
  /** search_tools and describe_tools (BuiltinTools.definitions); read_result is the plan's own. */
  readonly builtins: readonly ToolDefinition[];
  readonly runningServers: ReadonlySet<string>;
  readonly forced?: string;
}

/** What one request may offer and run, re-resolved before every request of a turn. */
export interface ToolPlan {
  readonly config: ToolsConfig;
  /** In provider order: builtins first, then by qualified name. */
  readonly offered: readonly ToolDefinition[];
  readonly permitted: readonly ToolDefinition[];
  readonly searchable: readonly ToolDefinition[];
  /**
   * What the system prompt's server index describes: permitted MCP tools that are discoverable
   * when the conversation's promotions are left out. A promotion never changes it, so the
   * system prompt stays byte-identical across one (the prompt cache keys on it).
   */
  readonly indexed: readonly ToolDefinition[];
  readonly resolved: ReadonlyMap<string, ResolvedTool>;
  readonly searchRegistered: boolean;
}

/** Every builtin the model may be offered: the search builtins given, and read_result. */
export function allBuiltins(search: readonly ToolDefinition[]): ToolDefinition[] {
  return [...search, READ_RESULT_DEFINITION];
}

/**
 * The sets for the next request from the stream alone. Builtins are offered while they are
 * registered (monotone, from the stream: search_tools and describe_tools once a tool was
 * discoverable, read_result once a result was kept) unless their own entry turns them off: their
 * availability ignores `*`, since a `*` of off or discoverable would otherwise hide the very
 * tool that finds discoverable tools. Their run policy does inherit from `*`.
 */
export function planTools(input: ToolPlanInput): ToolPlan {
  const config = configAt(input.events);
  const sets = computeToolSets({ catalogue: input.mcpTools, config, runningServers: input.runningServers, ...(input.forced ? { forced: input.forced } : {}) });
  const searchRegistered = searchToolsRegistered(input.events);
  const resultsKept = readResultRegistered(input.events);
  const resolved = new Map(sets.resolved);
  const builtins = allBuiltins(input.builtins).filter((b) => {
    const own = config.get(b.name);
    const r = { ...resolveTool(config, b), availability: own?.availability ?? 'on', allowToggle: own?.allowToggle ?? 'any' } as const;
    resolved.set(b.name, r);
    return (b.name === READ_RESULT_NAME ? resultsKept : searchRegistered) && r.availability !== 'off';
  });
  return {
    config,
    offered: orderTools([...builtins, ...sets.offered]),
    permitted: [...builtins, ...sets.permitted],
    searchable: sets.searchable,
    indexed: discoverableBeforePromotions(input.events, sets.permitted),
    resolved,
    searchRegistered,
  };
}

function discoverableBeforePromotions(events: readonly StreamEvent[], permitted: readonly ToolDefinition[]): ToolDefinition[] {
  const unpromoted = configAt(events.filter((e) => e.type !== 'config_delta' || e.source !== 'promotion'));
  return permitted.filter((t) => t.server !== undefined && resolveTool(unpromoted, t).availability === 'discoverable');
}

/** Why `/use NAME` cannot run, or undefined when it can (the server may still need starting). */
export function forcedRefusal(name: string, config: ToolsConfig, server: string | undefined): string | undefined {
  if (isLockedOff(resolveTool(config, { name, server }))) {
    return `${name} is locked off in settings (availability "off", allow_toggle "never"), so /use cannot offer it. Change its "enable" in settings.json first.`;
  }
  return undefined;
}

