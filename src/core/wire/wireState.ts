import type { ChatMessage, Discovery } from '../models/model';
import type { AssistantBlock, StreamEvent, WireTool } from '../stream/events';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';

/** What the conversation's requests have sent so far, read back from the stream alone. */
export interface WireState {
  /** The system prompt as first sent; undefined before the first request. */
  readonly system: string | undefined;
  /** The system prompt as it stands after appended catalogue changes. */
  readonly systemNow: string | undefined;
  readonly upFront: readonly WireTool[];
  /** Definitions appended with defer_loading, in the order first recorded. */
  readonly deferred: readonly WireTool[];
  /** Every recorded definition by name: the bytes every request sends under that name. */
  readonly definitions: ReadonlyMap<string, WireTool>;
  /** Names the model is offered at the end of the transcript. */
  readonly offered: ReadonlySet<string>;
  /** Each search result that loads deferred tools, and which. */
  readonly discoveries: readonly Discovery[];
  /**
   * Names a `/use` change added that no later change withdrew, and the `/use` tool of the first
   * request when it went up front as that request's only tool (see wireChanges.ts, opening).
   */
  readonly addedForUse: ReadonlySet<string>;
}

function survivingResults(messages: readonly ChatMessage[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'user') continue;
    for (const b of m.content) if (b.type === 'tool_result') ids.add(b.toolUseId);
  }
  return ids;
}

type Compaction = Extract<AssistantBlock, { type: 'compaction' }>;

/** The last compaction block of a reply that holds a summary (one without is a failed compaction, a no-op). */
function compactionIn(content: readonly AssistantBlock[]): Compaction | undefined {
  return content.filter((b): b is Compaction => b.type === 'compaction' && b.summary !== null).at(-1);
}

/**
 * What the model is offered right after a compaction boundary: the API drops every message before
 * the block, so also the references, additions and removals there. The tools array stays, and the
 * block's own tool changes (the server's account of the dropped range) apply; when it gives none,
 * only the array survives. Later changes are compared against this (wireEventsFor), so what the
 * conversation had and the boundary dropped comes back by an appended change.
 */
function carryOver(boundary: Compaction, upFront: readonly WireTool[], offered: Set<string>, addedForUse: Set<string>): void {
  offered.clear();
  for (const t of upFront) offered.add(t.name);
  for (const name of boundary.toolChanges?.removed ?? []) offered.delete(name);
  for (const name of boundary.toolChanges?.added ?? []) offered.add(name);
  for (const name of [...addedForUse]) if (!offered.has(name)) addedForUse.delete(name);
}

/**
 * Walks the stream in order (definitions first: where a wire_tools event stands does not matter,
 * since `tools` is not a message). A search result still in the transcript loads each tool it
 * reported usable that the model was not offered at that point: a reference, once sent, stays
 * where it was first sent, and a later search reporting the same tool loads nothing; a tool is
 * loaded only if its definition was recorded as deferred (when its search result was, see
 * loadedDefinitions): a reference to a tool of the array as first sent is refused, so one of
 * those found again after it was withdrawn comes back by a change instead. A change
 * adds and removes names where it stands. Only the first `upFront` event counts: the tools
 * array, empty or not, stays as the first request sent it. Everything comes from the stream, so
 * a reopened conversation sends the same bytes. A compaction boundary resets what is offered
 * (carryOver).
 */
export function wireStateOf(events: readonly StreamEvent[], messages: readonly ChatMessage[]): WireState {
  const kept = survivingResults(messages);
  let system: string | undefined;
  let systemNow: string | undefined;
  let upFront: readonly WireTool[] = [];
  const deferred: WireTool[] = [];
  const definitions = new Map<string, WireTool>();
  const offered = new Set<string>();
  const discoveries: Discovery[] = [];
  const addedForUse = new Set<string>();
  let opened = false;
  for (const e of events) {
    if (e.type !== 'wire_tools') continue;
    const fresh = e.tools.filter((t) => !definitions.has(t.name));
    for (const t of fresh) definitions.set(t.name, t);
    if (e.placement === 'deferred') deferred.push(...fresh);
    else if (!opened) {
      upFront = fresh;
      opened = true;
    }
  }
  for (const t of upFront) offered.add(t.name);
  const deferredNames = new Set(deferred.map((t) => t.name));
  let forced: string | undefined;
  for (const e of events) {
    if (e.type === 'assistant_message') {
      const boundary = compactionIn(e.content);
      if (boundary !== undefined) carryOver(boundary, upFront, offered, addedForUse);
    }
    if (e.type === 'user_message') forced = e.forced;
    else if (e.type === 'wire_system' && system === undefined) {
      system = systemNow = e.text;
      if (forced !== undefined && upFront.some((t) => t.name === forced)) addedForUse.add(forced);
    } else if (e.type === 'tool_result' && e.name === SEARCH_TOOLS_NAME && e.found !== undefined && kept.has(e.toolUseId)) {
      const loads = [...new Set(e.found.filter((f) => f.status === 'usable' && !offered.has(f.name) && deferredNames.has(f.name)).map((f) => f.name))];
      for (const name of loads) offered.add(name);
      if (loads.length > 0) discoveries.push({ toolUseId: e.toolUseId, tools: loads });
    } else if (e.type === 'wire_change') {
      for (const name of e.removed) {
        offered.delete(name);
        addedForUse.delete(name);
      }
      for (const name of e.added) offered.add(name);
      if (e.cause === 'use') for (const name of e.added) addedForUse.add(name);
      if (e.systemPrompt !== undefined) systemNow = e.systemPrompt;
    }
  }
  return { system, systemNow, upFront, deferred, definitions, offered, discoveries, addedForUse };
}
