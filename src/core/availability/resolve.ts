import { DEFAULTS_KEY, serverDefaultsKey, type ResolvedTool, type RunPolicy, type ToolEntry, type ToolsConfig } from './types';

/** Layers merge per field: a field set in a later layer replaces it, an unset field keeps the earlier one. */
export function mergeEntries(base: ToolEntry | undefined, over: ToolEntry): ToolEntry {
  return { ...base, ...over };
}

/** Settings base plus config deltas, in stream order. */
export function foldConfigs(layers: readonly ToolsConfig[]): ToolsConfig {
  const folded = new Map<string, ToolEntry>();
  for (const layer of layers) {
    for (const [key, entry] of layer) folded.set(key, mergeEntries(folded.get(key), entry));
  }
  return folded;
}

export interface ToolIdentity {
  readonly name: string;
  /** Undefined for builtins, which have no server layer. */
  readonly server: string | undefined;
}

/**
 * Resolves one tool field by field: its own entry, else its server's `<server>__*`,
 * else `*`, else on / any. Builtins default to running unattended; MCP tools ask.
 */
export function resolveTool(config: ToolsConfig, tool: ToolIdentity): ResolvedTool {
  const chain: (ToolEntry | undefined)[] = [
    config.get(tool.name),
    tool.server === undefined ? undefined : config.get(serverDefaultsKey(tool.server)),
    config.get(DEFAULTS_KEY),
  ];
  const first = <K extends keyof ToolEntry>(field: K): ToolEntry[K] => chain.find((e) => e?.[field] !== undefined)?.[field];
  const defaultRun: RunPolicy = tool.server === undefined ? 'unattended' : 'ask';
  return {
    availability: first('availability') ?? 'on',
    allowToggle: first('allowToggle') ?? 'any',
    run: first('run') ?? defaultRun,
  };
}
