import { parseEnable } from './parse';
import { serverDefaultsKey, type Availability, type RunPolicy } from './types';

type Json = Readonly<Record<string, unknown>>;

function isTable(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The written form that sets `availability` and keeps the entry's toggle policy. A shorthand
 * whose policy is `any` stays a shorthand; any other shorthand becomes a table that spells out
 * the policy it implied; a table keeps its other fields and loses a legacy `state`, so the
 * file never holds two spellings of one field. No existing `enable`: a table with only
 * `availability`, so the toggle policy keeps inheriting from `<server>__*` and `*`.
 */
function nextEnable(current: unknown, availability: Availability): unknown {
  if (current === undefined) return { availability };
  if (isTable(current)) {
    const { state: _legacy, ...rest } = current;
    return { ...rest, availability };
  }
  const policy = parseEnable(current, 'enable').value.allowToggle;
  if (policy === undefined || policy === 'any') return availability;
  return { availability, allow_toggle: policy };
}

function withEntryField(tools: unknown, key: string, update: (entry: Json) => Json): Json {
  const all: Json = isTable(tools) ? tools : {};
  const entry: Json = isTable(all[key]) ? all[key] : {};
  return { ...all, [key]: update(entry) };
}

/** The new `quiver.tools` value after setting one key's availability; every other entry is kept as it was. */
export function withToolEnable(tools: unknown, key: string, availability: Availability): Json {
  return withEntryField(tools, key, (entry) => ({ ...entry, enable: nextEnable(entry['enable'], availability) }));
}

/** The new `quiver.tools` value after setting one key's run policy ("Always allow" writes unattended). */
export function withToolRun(tools: unknown, key: string, run: RunPolicy): Json {
  return withEntryField(tools, key, (entry) => ({ ...entry, run }));
}

export type SettingsScope = 'workspaceFolder' | 'workspace' | 'user';

export interface ScopedValues {
  readonly workspaceFolder?: unknown;
  readonly workspace?: unknown;
  readonly user?: unknown;
}

/**
 * Where a write for `key` goes: the most specific scope whose `quiver.tools` already has an
 * entry for it (so the edit lands where the user will look for it and is not shadowed), else
 * the workspace when one is open, else the user's settings.
 */
export function scopeForToolKey(values: ScopedValues, key: string, workspaceOpen: boolean): SettingsScope {
  const order: SettingsScope[] = ['workspaceFolder', 'workspace', 'user'];
  const holder = order.find((scope) => {
    const value = values[scope];
    return isTable(value) && Object.prototype.hasOwnProperty.call(value, key);
  });
  return holder ?? (workspaceOpen ? 'workspace' : 'user');
}

/**
 * Sets a whole server's availability in one write: its `<server>__*` entry, plus each of
 * `toolKeys` that has an `enable` of its own (which would otherwise shadow the server entry).
 * Entries without an `enable`, and every other entry, are kept as they were.
 */
export function withServerEnable(tools: unknown, server: string, toolKeys: readonly string[], availability: Availability): Json {
  let next = withToolEnable(tools, serverDefaultsKey(server), availability);
  for (const key of toolKeys) {
    const entry = next[key];
    if (isTable(entry) && entry['enable'] !== undefined) next = withToolEnable(next, key, availability);
  }
  return next;
}
