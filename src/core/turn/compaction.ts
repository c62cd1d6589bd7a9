import { attachmentsBefore, lastCompactionBoundary, withSummaryInstruction, type CompactionForm } from '../context';
import type { ModelClient, ModelRequest } from '../models/model';
import type { AssistantBlock, StreamEvent } from '../stream/events';
import { streamReply } from './reply';

/** A compaction that happened (its events, to record) or did not (why, for the user; its usage is still recorded). */
export type CompactionOutcome =
  | { readonly ok: true; readonly events: readonly StreamEvent[] }
  | { readonly ok: false; readonly reason: 'cancelled' | 'error'; readonly message: string; readonly cause?: string; readonly events: readonly StreamEvent[] };

type Usage = Extract<StreamEvent, { type: 'usage' }>;
type Compaction = Extract<AssistantBlock, { type: 'compaction' }>;

const NO_SUMMARY = 'The model returned no summary, so nothing was compacted; the conversation goes on as it was. Try /compact again, or start a new chat.';

/** Why `/compact` has nothing to do (undefined when it has): no request yet, or nothing since the last boundary. */
export function nothingToCompact(events: readonly StreamEvent[]): string | undefined {
  const boundary = lastCompactionBoundary(events);
  const answered = events.slice(boundary + 1).some((e) => e.type === 'assistant_message' && e.content.length > 0);
  if (answered) return undefined;
  return boundary < 0 ? 'There is nothing to compact yet: the conversation has no reply.' : 'There is nothing to compact: nothing was said since the last compaction.';
}

/** The summarizing request's usage, marked as a compaction (what it read and wrote), for the breakdown and the cost. */
function asCompaction(usage: Usage): Usage {
  return { ...usage, compacted: { inputTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens, outputTokens: usage.outputTokens } };
}

/**
 * The API's on-demand compaction: the reply holds the signed compaction block alone
 * (`stop_reason: "compaction"`); recorded as returned, marked on demand so the wire sends it
 * first from now on (context/boundary.ts, segmentStart). A block without a summary is a failed
 * compaction: nothing is recorded but the usage.
 */
async function onDemand(model: ModelClient, request: ModelRequest, signal: AbortSignal): Promise<CompactionOutcome> {
  const reply = await streamReply(model, { ...request, compactNow: true }, {}, signal);
  if (!reply.ok) return { ...reply, events: [] };
  const usage = reply.events.filter((e): e is Usage => e.type === 'usage').map(asCompaction);
  const block = reply.content.find((b): b is Compaction => b.type === 'compaction' && b.summary !== null);
  const message = reply.events.find((e) => e.type === 'assistant_message');
  if (block === undefined || message?.type !== 'assistant_message') return { ok: false, reason: 'error', message: NO_SUMMARY, cause: 'no summary', events: usage };
  return { ok: true, events: [{ ...message, content: [block], onDemand: true }, ...usage] };
}

/**
 * Quiver's own compaction: one request, the conversation as sent with the summarizing instruction
 * appended; the reply's words are the summary (a tool call in it never runs). Its usage is
 * recorded before the boundary, so the next request's estimate counts from the boundary on.
 */
async function own(model: ModelClient, request: ModelRequest, events: readonly StreamEvent[], signal: AbortSignal): Promise<CompactionOutcome> {
  const reply = await streamReply(model, { ...request, messages: withSummaryInstruction(request.messages) }, {}, signal);
  if (!reply.ok) return { ...reply, events: [] };
  const usage = reply.events.filter((e): e is Usage => e.type === 'usage').map(asCompaction);
  const summary = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim();
  if (summary === '') return { ok: false, reason: 'error', message: NO_SUMMARY, cause: 'no summary', events: usage };
  const attachments = attachmentsBefore(events);
  return { ok: true, events: [...usage, { type: 'compacted', summary, ...(attachments.length > 0 ? { attachments } : {}), at: new Date().toISOString() }] };
}

/** Compacts the conversation now, in `form`, from `request` (the next request as it would be sent). */
export function compactNow(form: CompactionForm, model: ModelClient, request: ModelRequest, events: readonly StreamEvent[], signal: AbortSignal): Promise<CompactionOutcome> {
  return form === 'onDemand' ? onDemand(model, request, signal) : own(model, request, events, signal);
}
