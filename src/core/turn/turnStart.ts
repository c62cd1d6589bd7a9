import type { Attachment } from '../attachments/attachment';
import { configAt, recordedSettings, settingsDelta } from '../stream/config';
import type { StreamEvent } from '../stream/events';
import type { ToolSource } from '../tools/toolSource';
import { serverOfQualifiedName, serversToStart } from '../availability';
import { forcedRefusal } from './toolPlan';

export type TurnStart =
  | {
      readonly kind: 'message';
      readonly text: string;
      readonly forced?: string;
      readonly attachments: readonly Attachment[];
      /** Retry: the stream index of the failed message this one replaces, dropped in the same write (so a retry refused before it is recorded loses nothing). */
      readonly replaces: number | null;
    }
  /** Regenerate the last reply (see the `restart` event). */
  | { readonly kind: 'restart' };

/** The settings delta to record when `settingsTools` differs from what the stream last recorded (none when equal). */
export function settingsChange(history: readonly StreamEvent[], settingsTools: unknown, at: string): StreamEvent[] {
  const delta = settingsDelta(recordedSettings(history), settingsTools);
  return Object.keys(delta).length > 0 ? [{ type: 'config_delta', source: 'settings', tools: delta, at }] : [];
}

/** The events that open a turn: its marker, the settings that changed since the last turn, the user's message. */
export function openingEvents(history: readonly StreamEvent[], start: TurnStart, settingsTools: unknown, at: string): StreamEvent[] {
  const events: StreamEvent[] = [start.kind === 'restart' ? { type: 'restart', at } : { type: 'turn_start', at }];
  events.push(...settingsChange(history, settingsTools, at));
  if (start.kind === 'message') {
    events.push({ type: 'user_message', text: start.text, ...(start.forced !== undefined ? { forced: start.forced } : {}), ...(start.attachments.length > 0 ? { attachments: start.attachments } : {}), at });
    if (start.replaces !== null) events.push({ type: 'message_dropped', index: start.replaces, at });
  }
  return events;
}

/**
 * Gets a forced tool (`/use NAME`) ready: refuses a locked-off one, and starts its server when
 * it is not running (failed, stopped, idle, or not yet started). Returns the
 * refusal for the user, or undefined when the tool can be offered.
 */
export async function prepareForced(name: string, events: readonly StreamEvent[], source: ToolSource): Promise<string | undefined> {
  const known = source.tools().find((t) => t.name === name);
  const server = known ? known.server : (source.serverOfKey(name) ?? serverOfQualifiedName(name));
  const refusal = forcedRefusal(name, configAt(events), server);
  if (refusal !== undefined) return refusal;
  // An idle server's tools are known from its cache; the one the user names must be live.
  if (server !== undefined && (!known || source.idleServers().has(server))) {
    try {
      await source.ensureRunning(server);
    } catch (err) {
      return `/use ${name}: its server "${server}" could not start: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  if (!source.tools().some((t) => t.name === name)) {
    return `/use ${name}: there is no such tool${server !== undefined ? ` on server "${server}"` : ''}. Check the Tools view for the exact name.`;
  }
  return undefined;
}

/**
 * The servers still starting that this turn cannot do without: the forced tool's (idle too, as
 * prepareForced starts it), and those of tools the conversation turned on by name (a search's
 * promotion, a /set). Any other server the turn does without until it is up; a call of an idle
 * server's tool starts it then.
 */
export function serversToAwait(events: readonly StreamEvent[], forced: string | undefined, source: ToolSource): string[] {
  const starting = source.startingServers();
  const config = configAt(events);
  const named = events.flatMap((e) => (e.type === 'config_delta' && e.source !== 'settings' ? Object.keys(e.tools) : []));
  const awaited = named.filter((key) => config.get(key)?.availability === 'on').map((key) => source.serverOfKey(key)).filter((s): s is string => s !== undefined && starting.has(s));
  const forcedServer = forced !== undefined ? source.serverOfKey(forced) : undefined;
  if (forcedServer !== undefined && (starting.has(forcedServer) || source.idleServers().has(forcedServer))) awaited.push(forcedServer);
  return [...new Set(awaited)].sort();
}

/**
 * Starts, at once, the servers left off by settings that the conversation's own config
 * (its `/set`s, recorded in the stream) permits a tool of. Never rejects: a server that
 * cannot start shows why in the Tools view, and the turn goes on without it.
 */
export async function startPermittedServers(events: readonly StreamEvent[], source: ToolSource): Promise<void> {
  const names = serversToStart(configAt(events), source.offServers());
  await Promise.all(names.map((name) => source.ensureRunning(name).catch(() => undefined)));
}
