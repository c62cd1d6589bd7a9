import { DEFAULTS_KEY, serverDefaultsKey, type ConfigIssue, type ResolvedTool, type RunPolicy, type ToolEntry, type ToolsConfig } from './types';

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
  /** The source's own recommendation (ToolDefinition.defaults), below every `quiver.tools` layer. */
  readonly defaults?: ToolEntry;
}

/**
 * Resolves one tool field by field: its own entry, else its server's `<server>__*`,
 * else `*`, else the tool source's own defaults, else on / any. Builtins default to running
 * unattended; MCP tools ask.
 */
export function resolveTool(config: ToolsConfig, tool: ToolIdentity): ResolvedTool {
  const chain = chainKeys(tool).map((key) => config.get(key));
  const first = <K extends keyof ToolEntry>(field: K): ToolEntry[K] => chain.find((e) => e?.[field] !== undefined)?.[field] ?? tool.defaults?.[field];
  const defaultRun: RunPolicy = tool.server === undefined ? 'unattended' : 'ask';
  const resultTokens = first('resultTokens');
  return {
    availability: first('availability') ?? 'on',
    allowToggle: first('allowToggle') ?? 'any',
    run: first('run') ?? defaultRun,
    ...(resultTokens !== undefined ? { resultTokens } : {}),
  };
}

/** The keys a tool's fields are looked up under, most specific first. */
function chainKeys(tool: ToolIdentity): string[] {
  return tool.server === undefined ? [tool.name, DEFAULTS_KEY] : [tool.name, serverDefaultsKey(tool.server), DEFAULTS_KEY];
}

/** The key `tool`'s run policy comes from (its own, its server's `<server>__*` or `*`); undefined when none sets one. */
export function runSourceKey(config: ToolsConfig, tool: ToolIdentity): string | undefined {
  return chainKeys(tool).find((key) => config.get(key)?.run !== undefined);
}

/**
 * The problem that left `tool` off, if any: the entry it takes its availability from (its own,
 * its server's `<server>__*` or `*`) could not be read. `issues` are those of parsing `config`.
 */
export function issueTurningOff(config: ToolsConfig, issues: readonly ConfigIssue[], tool: ToolIdentity): ConfigIssue | undefined {
  const source = chainKeys(tool).find((key) => config.get(key)?.availability !== undefined);
  return source === undefined ? undefined : issues.find((i) => i.key === source && i.turnsOff === true);
}
