import { computeToolSets, isLockedOff, type AllowToggle, type Availability, type ToolsConfig } from './availability';
import type { ToolDefinition } from './tools';

export interface ToolOverviewItem {
  readonly tool: ToolDefinition;
  readonly availability: Availability;
  readonly allowToggle: AllowToggle;
  /** Estimated tokens of this tool's definition when offered. */
  readonly tokens: number;
  /** On only because a search_tools call promoted it in the active conversation. */
  readonly promoted: boolean;
}

export interface ToolOverview {
  readonly groups: Readonly<Record<Availability, readonly ToolOverviewItem[]>>;
  /** Estimated tokens of the offered set: what every request carries. */
  readonly offeredTokens: number;
  /** Estimated tokens if every permitted tool were offered up front. */
  readonly permittedTokens: number;
  readonly offeredCount: number;
  readonly searchableCount: number;
}

export interface ToolOverviewInput {
  readonly catalogue: readonly ToolDefinition[];
  readonly config: ToolsConfig;
  readonly runningServers: ReadonlySet<string>;
  readonly promoted: ReadonlySet<string>;
  readonly estimateTokens: (tool: ToolDefinition) => number;
}

/**
 * What the tools tree and the status bar show, derived from the same sets the turn loop uses,
 * so the UI can never disagree with what the model is sent. Locked-off tools are hidden.
 */
export function buildToolOverview(input: ToolOverviewInput): ToolOverview {
  const sets = computeToolSets(input);
  const groups: Record<Availability, ToolOverviewItem[]> = { on: [], discoverable: [], off: [] };
  for (const tool of input.catalogue) {
    const resolved = sets.resolved.get(tool.name);
    if (!resolved || isLockedOff(resolved)) continue;
    groups[resolved.availability].push({
      tool,
      availability: resolved.availability,
      allowToggle: resolved.allowToggle,
      tokens: input.estimateTokens(tool),
      promoted: input.promoted.has(tool.name) && resolved.availability === 'on',
    });
  }
  const sum = (tools: readonly ToolDefinition[]): number => tools.reduce((n, t) => n + input.estimateTokens(t), 0);
  return {
    groups,
    offeredTokens: sum(sets.offered),
    permittedTokens: sum(sets.permitted),
    offeredCount: sets.offered.length,
    searchableCount: sets.searchable.length,
  };
}

/** `3.1k` style, as the status bar shows token counts. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 100_000) return `${(tokens / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.round(tokens / 1000)}k`;
}
