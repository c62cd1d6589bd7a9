import type { FoundTool, HistoryItem, SearchOutcome } from '../chat/items';
import type { ToolsConfig } from '../availability';
import type { StreamEvent, WireTool } from '../stream/events';
import { estimateToolTokens } from '../overhead/tokens';

type SearchResultEvent = Extract<StreamEvent, { type: 'tool_result' }>;

/** A recorded search result as its card shows it: its rows, and the servers it could not search, for want of a sign-in or still starting. */
export function searchDone(e: SearchResultEvent): Extract<SearchOutcome, { status: 'done' }> {
  return {
    status: 'done',
    found: searchRows(e),
    ...(e.waitingForSignIn !== undefined && e.waitingForSignIn.length > 0 ? { waitingForSignIn: e.waitingForSignIn } : {}),
    ...(e.serversStarting !== undefined && e.serversStarting.length > 0 ? { serversStarting: e.serversStarting } : {}),
  };
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
 * A search card as the stream stands now: a tool it loaded is `unloaded` once the conversation
 * no longer has it on (Unload, `/set`, a settings edit of that tool), and each loaded row carries
 * the estimated tokens of the definition the wire recorded for it (`definitions`: the first of
 * each name), which is what every later request carries. Only the tool's own entry of `config`
 * is read: a promotion writes that entry, which outranks its server's and `*` (so nothing else
 * can turn it off). Any other item is returned as it is.
 */
export function settleSearchCard(item: HistoryItem, config: ToolsConfig, definitions: ReadonlyMap<string, WireTool>): HistoryItem {
  if (item.kind !== 'search' || item.outcome.status !== 'done' || !item.outcome.found.some((f) => f.status === 'loaded')) return item;
  const found = item.outcome.found.map((f): FoundTool => {
    if (f.status !== 'loaded') return f;
    const definition = definitions.get(f.name);
    const tokens = definition === undefined ? null : estimateToolTokens(definition);
    return { ...f, status: config.get(f.name)?.availability === 'on' ? 'loaded' : 'unloaded', tokens };
  });
  return { ...item, outcome: { ...item.outcome, found } };
}

/** The tools a search card shows it loaded (before settling), or none for any other item. */
export function loadedRows(item: HistoryItem): string[] {
  return item.kind === 'search' && item.outcome.status === 'done' ? item.outcome.found.flatMap((f) => (f.status === 'loaded' ? [f.name] : [])) : [];
}

/** Whether a search card of `items` shows `name` as loaded: what the card's Unload acts on. */
export function loadedBySearch(items: readonly HistoryItem[], name: string): boolean {
  return items.some((it) => it.kind === 'search' && it.outcome.status === 'done' && it.outcome.found.some((f) => f.name === name && f.status === 'loaded'));
}
