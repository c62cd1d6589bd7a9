import { mergeEntries, parseToolsConfig, type ConfigIssue, type ToolEntry, type ToolsConfig } from '../availability';
import type { StreamEvent } from './events';

type RawTools = Readonly<Record<string, unknown>>;
type ConfigDelta = Extract<StreamEvent, { type: 'config_delta' }>;

/**
 * How settings enter the stream. The settings base is empty: the first turn records the whole
 * of `quiver.tools` as a `settings` delta, and every later turn start records the keys whose
 * entry changed since (the new entry, or null when the key was removed). A settings delta
 * *replaces* each key it names, so a key edited in settings supersedes earlier conversation
 * toggles of that key; `user` and `promotion` deltas merge field by field on top. Folding the
 * deltas in stream order therefore gives the config each request actually ran with.
 */
export function applyDelta(config: Map<string, ToolEntry>, delta: ConfigDelta, issues?: ConfigIssue[]): void {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(delta.tools)) {
    if (value === null && delta.source === 'settings') config.delete(key);
    else present[key] = value;
  }
  const parsed = parseToolsConfig(present, `${delta.source} delta`);
  issues?.push(...parsed.issues);
  for (const [key, entry] of parsed.value) {
    config.set(key, delta.source === 'settings' ? entry : mergeEntries(config.get(key), entry));
  }
}

/** The config in force after the first `end` events (all of them by default). */
export function configAt(events: readonly StreamEvent[], end = events.length): ToolsConfig {
  const config = new Map<string, ToolEntry>();
  for (let i = 0; i < end; i++) {
    const e = events[i];
    if (e?.type === 'config_delta') applyDelta(config, e);
  }
  return config;
}

/** Every config the stream has held: after each delta, starting with the empty base. */
export function configPositions(events: readonly StreamEvent[]): ToolsConfig[] {
  const config = new Map<string, ToolEntry>();
  const positions: ToolsConfig[] = [new Map()];
  for (const e of events) {
    if (e.type !== 'config_delta') continue;
    applyDelta(config, e);
    positions.push(new Map(config));
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
