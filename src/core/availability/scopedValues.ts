/** The settings scopes `quiver.tools` can be written in. */
export type SettingsScope = 'workspaceFolder' | 'workspace' | 'user';

/** `quiver.tools` as written in each scope (undefined where a scope has none). */
export interface ScopedValues {
  readonly workspaceFolder?: unknown;
  readonly workspace?: unknown;
  /** User settings, with a remote window's Machine settings (which a dev container's devcontainer.json writes: see RunTrust). */
  readonly user?: unknown;
}

export const MOST_SPECIFIC_FIRST: readonly SettingsScope[] = ['workspaceFolder', 'workspace', 'user'];

export type Json = Readonly<Record<string, unknown>>;

export function isTable(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `key`'s entry in one scope's `quiver.tools`, when it is an object. */
export function entryIn(tools: unknown, key: string): Json | undefined {
  const entry = isTable(tools) ? tools[key] : undefined;
  return isTable(entry) ? entry : undefined;
}

/** The value VS Code reads: the scopes merged object by object, deeply, the more specific winning. */
export function mergeScopedValues(values: ScopedValues): unknown {
  return [...MOST_SPECIFIC_FIRST].reverse().reduce<unknown>((merged, scope) => deepMerge(merged, values[scope]), undefined);
}

function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isTable(base) || !isTable(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = deepMerge(base[key], value);
  return merged;
}
