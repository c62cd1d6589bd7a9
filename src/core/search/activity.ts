import type { StreamEvent } from '../stream/events';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';

export interface SearchRecord {
  readonly query: string;
  readonly found: readonly { readonly name: string; readonly usable: boolean }[];
  /** Matches relevance or the load budget left out: named to the model, not promoted. */
  readonly notLoaded: readonly string[];
  /** Tools this search moved from discoverable to on: promoted in the stream, and found usable here first. */
  readonly promoted: readonly string[];
  /** Found tools the model called later in the conversation. */
  readonly called: readonly string[];
}

/** What discovery did in one conversation: the numbers RFD 108 phase 5 asks to watch. */
export interface SearchActivity {
  readonly turns: number;
  readonly searches: readonly SearchRecord[];
  /** Turns in which the model called a tool a search had found. */
  readonly turnsUsingFoundTools: number;
  /** Turns with at least one search. */
  readonly turnsWithSearch: number;
}

type ToolUse = { readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> };

/** Every search of the stream, what it found and promoted, and which found tools were called afterwards. */
export function searchActivity(events: readonly StreamEvent[]): SearchActivity {
  const calls = new Map<string, ToolUse>();
  const searches: Pick<SearchRecord, 'query' | 'found' | 'notLoaded'>[] = [];
  const promotedEver = new Set<string>();
  const callTurns: { name: string; turn: number }[] = [];
  const searchTurns = new Set<number>();
  let turn = 0;
  for (const e of events) {
    if (e.type === 'turn_start') turn++;
    else if (e.type === 'assistant_message') {
      for (const b of e.content) {
        if (b.type !== 'tool_use') continue;
        calls.set(b.id, b);
        if (b.name === SEARCH_TOOLS_NAME) searchTurns.add(turn);
        else callTurns.push({ name: b.name, turn });
      }
    } else if (e.type === 'tool_result' && e.name === SEARCH_TOOLS_NAME && e.found) {
      const query = calls.get(e.toolUseId)?.input['query'];
      searches.push({ query: typeof query === 'string' ? query : '', found: e.found.map((f) => ({ name: f.name, usable: f.status === 'usable' })), notLoaded: e.notLoaded ?? [] });
    } else if (e.type === 'config_delta' && e.source === 'promotion') {
      for (const name of Object.keys(e.tools)) promotedEver.add(name);
    }
  }
  // The fold records a promotion just before its search result, so credit each promoted tool to the first search that found it usable.
  const credited = new Set<string>();
  const promotedBy = searches.map((s) => s.found.filter((f) => f.usable && promotedEver.has(f.name) && !credited.has(f.name)).map((f) => (credited.add(f.name), f.name)));
  const foundNames = new Set(searches.flatMap((s) => s.found.map((f) => f.name)));
  const calledNames = new Set(callTurns.map((c) => c.name));
  return {
    turns: turn,
    searches: searches.map(({ query, found, notLoaded }, i) => ({ query, found, notLoaded, promoted: promotedBy[i] ?? [], called: found.map((f) => f.name).filter((n) => calledNames.has(n)) })),
    turnsUsingFoundTools: new Set(callTurns.filter((c) => foundNames.has(c.name)).map((c) => c.turn)).size,
    turnsWithSearch: searchTurns.size,
  };
}
