import type { FoundTool, HistoryItem, SearchOutcome } from './chatItems';
import { configAt } from './stream/config';
import type { StreamEvent, WireTool } from './stream/events';
import { estimateToolTokens } from './tokens';

type SearchResultEvent = Extract<StreamEvent, { type: 'tool_result' }>;

/** A recorded search result as its card shows it: its rows, and the servers it could not search for want of a sign-in. */
export function searchDone(e: SearchResultEvent): Extract<SearchOutcome, { status: 'done' }> {
  return { status: 'done', found: searchRows(e), ...(e.waitingForSignIn !== undefined && e.waitingForSignIn.length > 0 ? { waitingForSignIn: e.waitingForSignIn } : {}) };
}

/**
 * A search result's rows as recorded: what it made usable (read as `already on` until a
 * promotion delta credits it to this search, see chatHistory) or left unavailable, then what it
 * named as not loaded, then the matches that were loaded before it ran (`already on`: the model
 * was told they are loaded and callable), then those behind a server waiting for sign-in.
 */
export function searchRows(e: SearchResultEvent): FoundTool[] {
  return [
    ...(e.found ?? []).map((f): FoundTool => ({ name: f.name, status: f.status === 'usable' ? 'already on' : 'unavailable', tokens: null })),
    ...(e.notLoaded ?? []).map((name): FoundTool => ({ name, status: 'not loaded', tokens: null })),
    ...(e.alreadyLoaded ?? []).map((name): FoundTool => ({ name, status: 'already on', tokens: null })),
    ...(e.signInRequired ?? []).map((name): FoundTool => ({ name, status: 'sign in required', tokens: null })),
  ];
}

/**
 * The search cards as the stream stands now: a tool a search loaded is `unloaded` once the
 * conversation no longer has it on (Unload, `/set`, a settings edit of that tool), and each
 * loaded row carries the estimated tokens of the definition the wire recorded for it, which is
 * what every later request carries. Only the tool's own entry is read: a promotion writes that
 * entry, which outranks its server's and `*` (so nothing else can turn it off).
 */
export function settleSearchCards(items: readonly HistoryItem[], events: readonly StreamEvent[]): HistoryItem[] {
  if (!items.some((it) => it.kind === 'search' && it.outcome.status === 'done' && it.outcome.found.some((f) => f.status === 'loaded'))) return [...items];
  const config = configAt(events);
  const definitions = new Map<string, WireTool>();
  for (const e of events) if (e.type === 'wire_tools') for (const t of e.tools) if (!definitions.has(t.name)) definitions.set(t.name, t);
  return items.map((it): HistoryItem => {
    if (it.kind !== 'search' || it.outcome.status !== 'done' || !it.outcome.found.some((f) => f.status === 'loaded')) return it;
    const found = it.outcome.found.map((f): FoundTool => {
      if (f.status !== 'loaded') return f;
      const definition = definitions.get(f.name);
      const tokens = definition === undefined ? null : estimateToolTokens(definition);
      return { ...f, status: config.get(f.name)?.availability === 'on' ? 'loaded' : 'unloaded', tokens };
    });
    return { ...it, outcome: { ...it.outcome, found } };
  });
}

/** Whether a search card of `items` shows `name` as loaded: what the card's Unload acts on. */
export function loadedBySearch(items: readonly HistoryItem[], name: string): boolean {
  return items.some((it) => it.kind === 'search' && it.outcome.status === 'done' && it.outcome.found.some((f) => f.name === name && f.status === 'loaded'));
}
