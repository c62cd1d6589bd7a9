import type { ChatMessage, Discovery } from '../model';
import type { StreamEvent } from '../stream/events';
import { SEARCH_TOOLS_NAME, type ToolDefinition } from '../tools';

interface Positions {
  /** Where each tool_result stands in the messages, by tool_use id. */
  readonly results: ReadonlyMap<string, number>;
  /** Where each tool is first called in the messages, by name. */
  readonly firstCalls: ReadonlyMap<string, number>;
}

function positionsOf(messages: readonly ChatMessage[]): Positions {
  const results = new Map<string, number>();
  const firstCalls = new Map<string, number>();
  let at = 0;
  for (const m of messages) {
    for (const b of m.content) {
      at++;
      if (b.type === 'tool_result') results.set(b.toolUseId, at);
      else if (b.type === 'tool_use' && !firstCalls.has(b.name)) firstCalls.set(b.name, at);
    }
  }
  return { results, firstCalls };
}

/**
 * For every offered tool a search promoted, the search_tools result in `messages` that loads
 * it: the latest one that reported it usable before the model first called it. The latest, so a
 * tool promoted again after it was turned off is loaded where it was found again and no earlier
 * message changes; before the first call, so the conversation never calls a tool before the point
 * that loads it. A tool called before any such result (a `/use`, or `on` before it became
 * discoverable) has no discovery and is offered the ordinary way, as is one no longer offered or
 * whose search result a restart withdrew. From the stream alone, so a reopened conversation gets
 * the same answer.
 */
export function discoveriesOf(events: readonly StreamEvent[], messages: readonly ChatMessage[], offered: readonly ToolDefinition[]): Discovery[] {
  const { results, firstCalls } = positionsOf(messages);
  const offeredNames = new Set(offered.map((t) => t.name));
  const searches = events.flatMap((e) => (e.type === 'tool_result' && e.name === SEARCH_TOOLS_NAME && e.found !== undefined && results.has(e.toolUseId) ? [{ toolUseId: e.toolUseId, found: e.found, at: results.get(e.toolUseId) ?? 0 }] : []));
  const loader = new Map<string, { readonly toolUseId: string; readonly at: number }>();
  for (const search of searches) {
    for (const f of search.found) {
      const calledBefore = (firstCalls.get(f.name) ?? Infinity) < search.at;
      if (f.status === 'usable' && offeredNames.has(f.name) && !calledBefore && search.at > (loader.get(f.name)?.at ?? -1)) loader.set(f.name, search);
    }
  }
  const discoveries: Discovery[] = [];
  for (const search of searches) {
    const tools = [...new Set(search.found.map((f) => f.name))].filter((name) => loader.get(name)?.toolUseId === search.toolUseId);
    if (tools.length > 0 && !discoveries.some((d) => d.toolUseId === search.toolUseId)) discoveries.push({ toolUseId: search.toolUseId, tools });
  }
  return discoveries;
}
