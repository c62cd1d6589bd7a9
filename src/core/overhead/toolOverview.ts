import { isLockedOff, type AllowToggle, type Availability, type ResolvedTool, type RunPolicy } from '../availability';
import type { ToolDefinition } from '../tools/definitions';

export interface ToolOverviewItem {
  readonly tool: ToolDefinition;
  readonly availability: Availability;
  readonly allowToggle: AllowToggle;
  /** Whether a call asks first, as the next request will run it (settings and this conversation's deltas). */
  readonly run: RunPolicy;
  /** Estimated tokens of this tool's definition when offered. */
  readonly tokens: number;
  /** On only because a search_tools call promoted it in the active conversation. */
  readonly promoted: boolean;
  /**
   * Not on because this conversation took it out (a search card's Unload, `/set …enable=off`),
   * not because settings say so: other conversations are unaffected.
   */
  readonly unloadedInConversation: boolean;
  /** Where settings alone put the tool, when the overview was given settings (what it is outside this conversation). */
  readonly settingsAvailability?: Availability;
}

export interface ToolOverview {
  /** `on` holds the offered tools, `discoverable` the searchable ones, `off` the rest (locked off hidden). */
  readonly groups: Readonly<Record<Availability, readonly ToolOverviewItem[]>>;
  /** Estimated tokens of the offered set: what every request carries. */
  readonly offeredTokens: number;
  /** Estimated tokens if every permitted tool were offered up front. */
  readonly permittedTokens: number;
  readonly offeredCount: number;
  readonly searchableCount: number;
}

/** The sets of the next request (a ToolPlan), as the turn loop computes them. */
export interface PlannedSets {
  readonly offered: readonly ToolDefinition[];
  readonly permitted: readonly ToolDefinition[];
  readonly searchable: readonly ToolDefinition[];
  readonly resolved: ReadonlyMap<string, ResolvedTool>;
}

export interface ToolOverviewInput {
  /** Every tool to list: the builtins and the tools of running servers. */
  readonly catalogue: readonly ToolDefinition[];
  readonly plan: PlannedSets;
  readonly promoted: ReadonlySet<string>;
  /** Tools this conversation unloaded (unloadedTools); none when absent. */
  readonly unloaded?: ReadonlySet<string>;
  /** Where settings alone put a tool, for items this conversation unloaded. */
  readonly settingsAvailability?: (tool: ToolDefinition) => Availability;
  readonly estimateTokens: (tool: ToolDefinition) => number;
}

/**
 * What the tools tree and the status bar show, grouped by the very sets the turn loop sends,
 * so the UI can never disagree with the request. Builtins not offered yet (no tool has been
 * discoverable in this conversation) are left out rather than shown as off.
 */
export function buildToolOverview(input: ToolOverviewInput): ToolOverview {
  const offered = new Set(input.plan.offered.map((t) => t.name));
  const searchable = new Set(input.plan.searchable.map((t) => t.name));
  const groups: Record<Availability, ToolOverviewItem[]> = { on: [], discoverable: [], off: [] };
  for (const tool of input.catalogue) {
    const resolved = input.plan.resolved.get(tool.name);
    if (!resolved || isLockedOff(resolved)) continue;
    const group: Availability = offered.has(tool.name) ? 'on' : searchable.has(tool.name) ? 'discoverable' : 'off';
    if (group === 'off' && tool.server === undefined && resolved.availability !== 'off') continue;
    const unloaded = group !== 'on' && (input.unloaded?.has(tool.name) ?? false);
    const settingsAvailability = unloaded ? input.settingsAvailability?.(tool) : undefined;
    groups[group].push({
      tool,
      availability: group,
      allowToggle: resolved.allowToggle,
      run: resolved.run,
      tokens: input.estimateTokens(tool),
      promoted: group === 'on' && input.promoted.has(tool.name),
      unloadedInConversation: unloaded,
      ...(settingsAvailability !== undefined ? { settingsAvailability } : {}),
    });
  }
  const sum = (tools: readonly ToolDefinition[]): number => tools.reduce((n, t) => n + input.estimateTokens(t), 0);
  return {
    groups,
    offeredTokens: sum(input.plan.offered),
    permittedTokens: sum(input.plan.permitted),
    offeredCount: input.plan.offered.length,
    searchableCount: input.plan.searchable.length,
  };
}

export interface OfferedSplit {
  readonly upFront: { readonly count: number; readonly tokens: number };
  /** Tools a search loaded in this conversation (promoted): billed once, where they were loaded. */
  readonly bySearch: { readonly count: number; readonly tokens: number };
}

/** The offered set's cost, split into what every request carries up front and what searches loaded. */
export function offeredSplit(overview: ToolOverview): OfferedSplit {
  const loaded = overview.groups.on.filter((i) => i.promoted);
  const tokens = loaded.reduce((n, i) => n + i.tokens, 0);
  return {
    upFront: { count: overview.offeredCount - loaded.length, tokens: overview.offeredTokens - tokens },
    bySearch: { count: loaded.length, tokens },
  };
}

/** Every listed tool, On first, then Discoverable, then Off. */
export function allItems(overview: ToolOverview): readonly ToolOverviewItem[] {
  return [...overview.groups.on, ...overview.groups.discoverable, ...overview.groups.off];
}

/** `3.1k` style, as the status bar shows token counts. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 100_000) return `${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.round(tokens / 1000)}k`;
}

/** How the Tools view, its hover and the breakdown say that this conversation unloaded a tool. */
export const UNLOADED_IN_CONVERSATION = 'unloaded in this conversation';

/** For an item this conversation unloaded: what settings say, what the conversation did, and what Make On / Make Discoverable will do. */
export function unloadedExplanation(item: ToolOverviewItem): string {
  const settings = item.settingsAvailability;
  const here = `This conversation unloaded it, so it is ${item.availability} here only; other conversations follow settings.`;
  const says = settings === undefined ? here : `Settings say ${settings}${settings === 'off' ? ' too' : ''}. ${here}`;
  const actions = settings === 'off'
    ? 'Make On or Make Discoverable writes settings, and undoes the unload in this conversation.'
    : 'Make On or Make Discoverable undoes the unload in this conversation only; settings stay as they are.';
  return `${says} ${actions}`;
}
