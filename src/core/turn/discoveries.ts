import type { ChatMessage, Discovery } from '../model';
import type { StreamEvent } from '../stream/events';
import { SEARCH_TOOLS_NAME, type ToolDefinition } from '../tools';

function resultIds(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) if (m.role === 'user') for (const b of m.content) if (b.type === 'tool_result') ids.add(b.toolUseId);
  return ids;
}

/**
 * For every offered tool a search promoted, the first search_tools result still in `messages`
 * that reported it usable. From the stream alone, so a reopened conversation gets the same
 * answer. A tool no longer offered has no discovery (nothing may load it), and neither has one
 * whose search result a restart withdrew (it is offered the ordinary way).
 */
export function discoveriesOf(events: readonly StreamEvent[], messages: readonly ChatMessage[], offered: readonly ToolDefinition[]): Discovery[] {
  const present = resultIds(messages);
  const offeredNames = new Set(offered.map((t) => t.name));
  const loaded = new Set<string>();
  const discoveries: Discovery[] = [];
  for (const e of events) {
    if (e.type !== 'tool_result' || e.name !== SEARCH_TOOLS_NAME || e.found === undefined || !present.has(e.toolUseId)) continue;
    const tools = e.found.filter((f) => f.status === 'usable' && offeredNames.has(f.name) && !loaded.has(f.name)).map((f) => f.name);
    for (const name of tools) loaded.add(name);
    if (tools.length > 0) discoveries.push({ toolUseId: e.toolUseId, tools });
  }
  return discoveries;
}
