import { lastCompactionBoundary } from '../context';
import type { ChatMessage } from '../models/model';
import type { StreamEvent, ToolChangeCause, WireTool } from '../stream/events';
import type { ToolDefinition } from '../tools/definitions';
import { builtinsOnText, catalogueText, compactionRestoredText, serverGoneText, turnedOffText, turnedOnText, useDoneText, useText } from './changeText';
import { wireStateOf, type WireState } from './wireState';
import { wireToolOf } from './wireTool';

export interface WireChangeInput {
  readonly events: readonly StreamEvent[];
  readonly messages: readonly ChatMessage[];
  /** What this request should offer (the plan's offered set, in its order). */
  readonly desired: readonly ToolDefinition[];
  /** `/use NAME` of this turn, on its first request only. */
  readonly forcedNow: string | undefined;
  /** Names the tool source lists now (builtins too): a name missing here went away with its server. */
  readonly listed: ReadonlySet<string>;
  readonly systemPrompt: string;
  readonly at: string;
}

function definitionsFor(tools: readonly ToolDefinition[]): WireTool[] {
  return tools.map(wireToolOf).filter((t): t is WireTool => t !== undefined);
}

function change(cause: ToolChangeCause, added: readonly string[], removed: readonly string[], text: string, at: string): StreamEvent {
  return { type: 'wire_change', cause, added, removed, text, at };
}

/**
 * The conversation's first request: the system prompt and the tools array as they will stay. A
 * `/use` tool is deferred and added by a change, so that it is withdrawn as it came, unless it is
 * the only tool this request offers: the API refuses a `tools` array in which every tool is
 * deferred ("At least one tool must have defer_loading=false. All tools cannot be deferred.",
 * https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool, "Error handling"), so it
 * goes up front and its change only asks for it (wireStateOf counts it as added for the /use, and
 * a later request withdraws it by an appended removal). When nothing is offered at all, the array
 * stays empty: no `tools` is sent, and tools come later by inline definitions (toWire.ts).
 */
function opening(input: WireChangeInput): StreamEvent[] {
  const others = definitionsFor(input.desired.filter((t) => t.name !== input.forcedNow));
  const upFront = others.length > 0 ? others : definitionsFor(input.desired.filter((t) => t.name === input.forcedNow));
  return [
    { type: 'wire_system', text: input.systemPrompt, at: input.at },
    { type: 'wire_tools', placement: 'upFront', tools: upFront, at: input.at },
  ];
}

function toolChanges(input: WireChangeInput, wire: WireState): StreamEvent[] {
  const desired = input.desired.filter((t) => wireToolOf(t) !== undefined);
  const wanted = new Set(desired.map((t) => t.name));
  const added = desired.filter((t) => !wire.offered.has(t.name));
  const removed = [...wire.offered].filter((name) => !wanted.has(name)).sort();
  const events: StreamEvent[] = [];
  const undefinedYet = added.filter((t) => !wire.definitions.has(t.name));
  if (undefinedYet.length > 0) events.push({ type: 'wire_tools', placement: 'deferred', tools: definitionsFor(undefinedYet), at: input.at });
  const gone = removed.filter((name) => !input.listed.has(name));
  const useDone = removed.filter((name) => input.listed.has(name) && wire.addedForUse.has(name));
  const turnedOff = removed.filter((name) => input.listed.has(name) && !wire.addedForUse.has(name));
  if (gone.length > 0) events.push(change('server', [], gone, serverGoneText(gone), input.at));
  if (useDone.length > 0) events.push(change('use_done', [], useDone, useDoneText(useDone), input.at));
  if (turnedOff.length > 0) events.push(change('settings', [], turnedOff, turnedOffText(turnedOff), input.at));
  const addedTools = added.filter((t) => t.name !== input.forcedNow);
  const builtins = addedTools.filter((t) => t.server === undefined).map((t) => t.name);
  const mcp = addedTools.filter((t) => t.server !== undefined).map((t) => t.name);
  if (builtins.length > 0) events.push(change('catalogue', builtins, [], builtinsOnText(builtins), input.at));
  if (mcp.length > 0) events.push(change('settings', mcp, [], turnedOnText(mcp), input.at));
  if (input.forcedNow !== undefined) {
    const forced = input.forcedNow;
    events.push(change('use', added.some((t) => t.name === forced) ? [forced] : [], [], useText(forced), input.at));
  }
  return events;
}

/**
 * After a compaction boundary, the tools the conversation offered just before it that are still
 * wanted and that the boundary dropped, offered again by one change of their own (so the model
 * reads why). Empty when there was no boundary, or once they are back.
 */
function restoredAfterCompaction(input: WireChangeInput, wire: WireState): StreamEvent[] {
  const at = lastCompactionBoundary(input.events);
  if (at < 0) return [];
  const before = wireStateOf(input.events.slice(0, at), input.messages).offered;
  const restore = input.desired.filter((t) => before.has(t.name) && !wire.offered.has(t.name) && wire.definitions.has(t.name)).map((t) => t.name);
  return restore.length > 0 ? [change('compaction', restore, [], compactionRestoredText(restore), input.at)] : [];
}

function catalogueChange(input: WireChangeInput, wire: WireState): StreamEvent[] {
  if (wire.systemNow === input.systemPrompt) return [];
  return [{ type: 'wire_change', cause: 'catalogue', added: [], removed: [], text: catalogueText(input.systemPrompt), systemPrompt: input.systemPrompt, at: input.at }];
}

/**
 * What to append to the stream before a request so that it offers `desired` without touching
 * anything sent before: on the first request, the system prompt and the tools array as they
 * will stay; later, a change for every tool offered or withdrawn since (removals first, then
 * additions, then the `/use` request) and a new system prompt as appended text. Definitions
 * are recorded the first time a name needs one. Empty when nothing changed.
 */
export function wireEventsFor(input: WireChangeInput): StreamEvent[] {
  const wire = wireStateOf(input.events, input.messages);
  if (wire.system === undefined) {
    const first = opening(input);
    const after = wireStateOf([...input.events, ...first], input.messages);
    return [...first, ...toolChanges(input, after)];
  }
  const restored = restoredAfterCompaction(input, wire);
  const now = restored.length > 0 ? wireStateOf([...input.events, ...restored], input.messages) : wire;
  return [...restored, ...toolChanges(input, now), ...catalogueChange(input, now)];
}

/**
 * Definitions for the tools a just-recorded search result reports usable, recorded with it: a
 * reference must name a tool the same request defines, and one recorded later would change
 * the request that first carried the result (wireStateOf loads only what has a definition).
 */
export function loadedDefinitions(results: readonly StreamEvent[], known: ReadonlyMap<string, WireTool>, catalogue: readonly ToolDefinition[], at: string): StreamEvent[] {
  const named = new Set<string>();
  for (const e of results) {
    if (e.type !== 'tool_result' || e.found === undefined) continue;
    for (const f of e.found) if (f.status === 'usable' && !known.has(f.name)) named.add(f.name);
  }
  const tools = definitionsFor(catalogue.filter((t) => named.has(t.name)));
  return tools.length > 0 ? [{ type: 'wire_tools', placement: 'deferred', tools, at }] : [];
}
