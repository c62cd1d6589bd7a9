import { READ_RESULT_NAME } from '../tools/definitions';
import type { StreamEvent } from '../stream/events';
import { lastCompactionBoundary } from './boundary';

type ToolResult = Extract<StreamEvent, { type: 'tool_result' }>;

/** Each call's input as JSON, by tool_use id. */
function callInputs(events: readonly StreamEvent[]): ReadonlyMap<string, string> {
  return new Map(events.flatMap((e) => (e.type === 'assistant_message' ? e.content.flatMap((b) => (b.type === 'tool_use' ? [[b.id, JSON.stringify(b.input)] as const] : [])) : [])));
}

/** A kept result as a note names it: its ref, and the call that made it, so the model knows which is which. */
const keptLabel = (r: ToolResult, calls: ReadonlyMap<string, string>): string => `${r.kept?.ref ?? ''} (${r.name} ${calls.get(r.toolUseId) ?? '{}'})`;

/** Where the last `cleared` note stands, or -1: later clearings are told from there on. */
function lastNote(events: readonly StreamEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'wire_change' && e.cause === 'cleared') return i;
  }
  return -1;
}

/**
 * After the API cleared old tool results (a `usage` event says so), a note appended for the model:
 * the placeholder the API leaves says only that a result was removed, so the note names the
 * results Quiver kept whole that may be among those cleared (every kept one but the `keep` most
 * recent tool results, not named by an earlier note) and that read_result still reads them. A note
 * is recorded in the stream, so replays send the same bytes.
 */
export function clearedNote(events: readonly StreamEvent[], keepToolUses: number, at: string): StreamEvent[] {
  const from = lastNote(events) + 1;
  const clearedSince = events.slice(from).filter((e) => e.type === 'usage' && e.cleared !== undefined);
  if (clearedSince.length === 0) return [];
  const results = events.filter((e): e is ToolResult => e.type === 'tool_result' && e.name !== READ_RESULT_NAME);
  const named = new Set(events.slice(0, from).flatMap((e) => (e.type === 'wire_change' && e.cause === 'cleared' ? [...e.text.matchAll(/\br[1-9][0-9]*\b/g)].map((m) => m[0]) : [])));
  const older = results.slice(0, Math.max(0, results.length - keepToolUses));
  const calls = callInputs(events);
  const kept = older.flatMap((r) => (r.kept !== undefined && !named.has(r.kept.ref) ? [keptLabel(r, calls)] : []));
  // The API clears again on every request past its trigger: later notes only name new kept results.
  if (kept.length === 0 && from > 0) return [];
  const toolUses = clearedSince.reduce((n, e) => n + (e.type === 'usage' ? (e.cleared?.toolUses ?? 0) : 0), 0);
  const text = [
    `To keep this conversation within the context window, ${toolUses} older tool ${toolUses === 1 ? 'result was' : 'results were'} cleared from what you read.`,
    kept.length > 0 ? `Quiver kept these whole; read them again with ${READ_RESULT_NAME} if you need them: ${kept.join(', ')}.` : 'Call a tool again if you need what it returned.',
  ].join(' ');
  return [{ type: 'wire_change', cause: 'cleared', added: [], removed: [], text, at }];
}

const MAX_LISTED = 40;

/**
 * After a compaction boundary, a note naming the results kept whole before it (the latest
 * MAX_LISTED), with the call that made each: the summary replaced the views that held their
 * refs, and read_result still reads them. Once per boundary.
 */
export function keptAfterCompaction(events: readonly StreamEvent[], at: string): StreamEvent[] {
  const boundary = lastCompactionBoundary(events);
  if (boundary < 0 || events.slice(boundary).some((e) => e.type === 'wire_change' && e.cause === 'cleared')) return [];
  const calls = callInputs(events.slice(0, boundary));
  const kept = events.slice(0, boundary).filter((e): e is ToolResult => e.type === 'tool_result' && e.kept !== undefined).slice(-MAX_LISTED);
  if (kept.length === 0) return [];
  const listed = kept.map((r) => keptLabel(r, calls)).join(', ');
  return [{ type: 'wire_change', cause: 'cleared', added: [], removed: [], text: `Tool results from before the summary that Quiver kept whole; read them with ${READ_RESULT_NAME} if you need them: ${listed}.`, at }];
}
