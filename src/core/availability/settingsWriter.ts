import { parseEnable, parseToolsConfig, SHORTHANDS } from './parse';
import { resolveTool, type ToolIdentity } from './resolve';
import { entryIn, isTable, MOST_SPECIFIC_FIRST, mergeScopedValues, type Json, type ScopedValues, type SettingsScope } from './scopedValues';
import { serverDefaultsKey, type AllowToggle, type Availability, type RunPolicy } from './types';

/**
 * One change to the `quiver.tools` value of one scope: `path` runs from a key of that value
 * down (`[key]`, `[key, "enable"]`, …); an undefined `value` removes the property. Edits name
 * only what changes, so a settings file can be edited in place with everything else kept.
 */
export interface SettingsEdit {
  readonly path: readonly string[];
  readonly value: unknown;
}

/**
 * Where a write for `key` goes: the most specific scope whose `quiver.tools` already has an
 * entry for it (so the edit lands where the user will look for it and is not shadowed), else
 * the workspace when one is open, else the user's settings.
 */
export function scopeForToolKey(values: ScopedValues, key: string, workspaceOpen: boolean): SettingsScope {
  const holder = MOST_SPECIFIC_FIRST.find((scope) => hasKey(values[scope], key));
  return holder ?? (workspaceOpen ? 'workspace' : 'user');
}

/** `tools` (one scope's `quiver.tools`) after `edit`. */
export function applySettingsEdit(tools: unknown, edit: SettingsEdit): Json {
  return setIn(isTable(tools) ? tools : {}, edit.path, edit.value);
}

/**
 * The edits that give `tool` (a `quiver.tools` key: a tool, `<server>__*` or `*`) the
 * availability in `scope`, in the shortest form that means it: no `enable` at all when the
 * entry would only repeat what it inherits (an entry left empty goes too); else a shorthand
 * (`"on"`, `"off"`, `"discoverable"`, …) when its allow_toggle is the one the tool ends up
 * with; else the table form, which keeps the allow_toggle the user wrote, or leaves it
 * inheriting. Editing a table removes a legacy `state` beside the new `availability`.
 */
export function enableEdits(values: ScopedValues, scope: SettingsScope, tool: ToolIdentity, availability: Availability): SettingsEdit[] {
  const key = tool.name;
  const current = entryIn(values[scope], key)?.['enable'];
  const written = writtenAllowToggle(current);
  const inherited = resolveTool(parseToolsConfig(mergeScopedValues(withoutEnable(values, scope, key))).value, tool);
  const allowToggle = written ?? inherited.allowToggle;
  if (inherited.availability === availability && inherited.allowToggle === allowToggle) return enableRemoval(values[scope], key);
  const shorthand = shorthandFor(availability, allowToggle);
  if (shorthand !== undefined) return [{ path: [key, 'enable'], value: shorthand }];
  if (isReadableTable(current)) {
    const legacy = isTable(current) && current['state'] !== undefined ? [{ path: [key, 'enable', 'state'], value: undefined }] : [];
    return [{ path: [key, 'enable', 'availability'], value: availability }, ...legacy];
  }
  return [{ path: [key, 'enable'], value: written === undefined ? { availability } : { availability, allow_toggle: written } }];
}

/**
 * A whole server's availability in one scope: its `<server>__*` entry, then each of `toolKeys`
 * that has an `enable` of its own there (which would otherwise shadow the server entry), each
 * against the entries before it, so one that now repeats the server entry goes.
 */
export function serverEnableEdits(values: ScopedValues, scope: SettingsScope, server: string, toolKeys: readonly string[], availability: Availability): SettingsEdit[] {
  const edits: SettingsEdit[] = [];
  let current = values;
  const add = (more: readonly SettingsEdit[]): void => {
    edits.push(...more);
    current = { ...current, [scope]: more.reduce<unknown>(applySettingsEdit, current[scope]) };
  };
  add(enableEdits(current, scope, { name: serverDefaultsKey(server), server }, availability));
  for (const key of toolKeys) {
    if (entryIn(current[scope], key)?.['enable'] !== undefined) add(enableEdits(current, scope, { name: key, server }, availability));
  }
  return edits;
}

/** Sets one key's run policy ("Always allow" writes unattended). */
export function runEdits(key: string, run: RunPolicy): SettingsEdit[] {
  return [{ path: [key, 'run'], value: run }];
}

/** Removes `key`'s run policy in one scope's `tools`, and the entry with it when nothing else is left in it. */
export function runRemoval(tools: unknown, key: string): SettingsEdit[] {
  return entryIn(tools, key)?.['run'] === undefined ? [] : fieldRemoval(tools, key, 'run');
}

function hasKey(tools: unknown, key: string): boolean {
  return isTable(tools) && Object.prototype.hasOwnProperty.call(tools, key);
}

/** Removes `key`'s `enable` in `scope`, or the whole entry when it is not a table (it cannot be read). */
function withoutEnable(values: ScopedValues, scope: SettingsScope, key: string): ScopedValues {
  if (!hasKey(values[scope], key)) return values;
  const path = entryIn(values[scope], key) ? [key, 'enable'] : [key];
  return { ...values, [scope]: applySettingsEdit(values[scope], { path, value: undefined }) };
}

/** Removes `enable`, and the entry with it when nothing else is left in it. */
function enableRemoval(tools: unknown, key: string): SettingsEdit[] {
  return hasKey(tools, key) ? fieldRemoval(tools, key, 'enable') : [];
}

/** Removes one field of `key`'s entry, or the whole entry when nothing else is in it (or it is not a table). */
function fieldRemoval(tools: unknown, key: string, field: string): SettingsEdit[] {
  const entry = entryIn(tools, key);
  const others = entry ? Object.keys(entry).filter((k) => k !== field) : [];
  return [{ path: others.length > 0 ? [key, field] : [key], value: undefined }];
}

/** The allow_toggle the user wrote in `enable` (a shorthand implies one), if it can be read. */
function writtenAllowToggle(enable: unknown): AllowToggle | undefined {
  if (enable === undefined) return undefined;
  const parsed = parseEnable(withoutState(enable), 'enable');
  return parsed.issues.length === 0 ? parsed.value.allowToggle : undefined;
}

/** A table that reads without error once its legacy `state` is gone: its other fields can stay. */
function isReadableTable(enable: unknown): boolean {
  return isTable(enable) && parseEnable(withoutState(enable), 'enable').issues.length === 0;
}

/** `state` names the field an edit replaces, so it does not count against a table it sits in. */
function withoutState(enable: unknown): unknown {
  if (!isTable(enable)) return enable;
  const { state: _legacy, ...rest } = enable;
  return rest;
}

function shorthandFor(availability: Availability, allowToggle: AllowToggle): string | undefined {
  return Object.entries(SHORTHANDS).find(([, s]) => s.availability === availability && s.allowToggle === allowToggle)?.[0];
}

function setIn(table: Json, path: readonly string[], value: unknown): Json {
  const [head, ...rest] = path;
  if (head === undefined) return table;
  const current = table[head];
  if (value === undefined && rest.length > 0 && !isTable(current)) return table;
  const next = rest.length === 0 ? value : setIn(isTable(current) ? current : {}, rest, value);
  if (next !== undefined) return { ...table, [head]: next };
  const { [head]: _removed, ...others } = table;
  return others;
}
