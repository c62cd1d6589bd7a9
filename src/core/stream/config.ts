import { mergeEntries, parseToolsConfig, type ConfigIssue, type ToolEntry, type ToolsConfig } from '../availability';
import type { StreamEvent } from './events';

type RawTools = Readonly<Record<string, unknown>>;
type ConfigDelta = Extract<StreamEvent, { type: 'config_delta' }>;

const FIELDS = ['availability', 'allowToggle', 'run', 'resultTokens'] as const satisfies readonly (keyof ToolEntry)[];
// Every field of an entry must be listed, or a settings edit of the one left out would never reach the stream.
const _everyField: Exclude<keyof ToolEntry, (typeof FIELDS)[number]> extends never ? true : never = true;
void _everyField;

/**
 * How settings enter the stream. The settings base is empty: the first turn records the whole
 * of `quiver.tools` as a `settings` delta, and every later turn (or cycle) records the keys
 * whose entry changed since (the new entry, or null when the key was removed). A settings delta
 * overrides, per field, only what the settings changed for that key, so an edit to a tool's
 * `run` keeps a promotion of its availability, while an edit of its `enable` supersedes earlier
 * conversation toggles of it. `user` and `promotion` deltas merge field by field on top.
 * Folding the deltas in stream order therefore gives the config each request actually ran with.
 */
export class ConfigFold {
  readonly config = new Map<string, ToolEntry>();
  /** The parsed settings entries as last recorded, to tell which fields a settings delta changes. */
  private readonly settings = new Map<string, ToolEntry>();

  apply(delta: ConfigDelta, issues?: ConfigIssue[]): void {
    if (delta.source !== 'settings') return applyDelta(this.config, delta, issues);
    const parsed = parseDelta(delta, issues);
    for (const key of Object.keys(delta.tools)) {
      const next = parsed.get(key);
      this.config.set(key, changedFields(this.config.get(key), this.settings.get(key), next));
      if (next) this.settings.set(key, next);
      else this.settings.delete(key);
    }
  }
}

function changedFields(current: ToolEntry | undefined, before: ToolEntry | undefined, after: ToolEntry | undefined): ToolEntry {
  const result: { -readonly [K in keyof ToolEntry]: ToolEntry[K] } = { ...current };
  for (const field of FIELDS) {
    if (before?.[field] === after?.[field]) continue;
    if (after?.[field] === undefined) delete result[field];
    else (result as Record<string, unknown>)[field] = after[field];
  }
  return result;
}

/** A delta's entries parsed like settings; null (a removed settings key) has no entry. */
function parseDelta(delta: ConfigDelta, issues?: ConfigIssue[]): ToolsConfig {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(delta.tools)) if (value !== null) present[key] = value;
  const parsed = parseToolsConfig(present, `${delta.source} delta`);
  issues?.push(...parsed.issues);
  return parsed.value;
}

/** Merges a user or promotion delta into a config field by field (also the commit buffer's fold within a cycle). */
export function applyDelta(config: Map<string, ToolEntry>, delta: ConfigDelta, issues?: ConfigIssue[]): void {
  for (const [key, entry] of parseDelta(delta, issues)) config.set(key, mergeEntries(config.get(key), entry));
}

/** The config in force after the first `end` events (all of them by default). */
export function configAt(events: readonly StreamEvent[], end = events.length): ToolsConfig {
  const fold = new ConfigFold();
  for (let i = 0; i < end; i++) {
    const e = events[i];
    if (e?.type === 'config_delta') fold.apply(e);
  }
  return fold.config;
}

/** Every config the stream has held: after each delta, starting with the empty base. */
export function configPositions(events: readonly StreamEvent[]): ToolsConfig[] {
  const fold = new ConfigFold();
  const positions: ToolsConfig[] = [new Map()];
  for (const e of events) {
    if (e.type !== 'config_delta') continue;
    fold.apply(e);
    positions.push(new Map(fold.config));
  }
  return positions;
}

/** `quiver.tools` as the stream last recorded it (the fold of settings deltas only, raw). */
export function recordedSettings(events: readonly StreamEvent[]): Map<string, unknown> {
  const recorded = new Map<string, unknown>();
  for (const e of events) {
    if (e.type !== 'config_delta' || e.source !== 'settings') continue;
    for (const [key, value] of Object.entries(e.tools)) {
      if (value === null) recorded.delete(key);
      else recorded.set(key, value);
    }
  }
  return recorded;
}

/** The per-key difference between what the stream recorded and the settings now; empty when equal. */
export function settingsDelta(recorded: ReadonlyMap<string, unknown>, current: unknown): Record<string, unknown> {
  const now: RawTools = typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as RawTools) : {};
  const delta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(now)) {
    if (!recorded.has(key) || stableJson(recorded.get(key)) !== stableJson(value)) delta[key] = value;
  }
  for (const key of recorded.keys()) if (!(key in now)) delta[key] = null;
  return delta;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as RawTools).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
