import type { Attachment } from '../attachments/attachment';
import type { ChatMessage } from '../models/model';
import type { StreamEvent } from '../stream/events';
import { tokensOfChars } from '../overhead/tokens';
import { lastCompactionBoundary } from './boundary';

/*
 * Quiver's own compaction, for models without the server's (compaction-threshold / -on-demand
 * list only some models, see modelCapabilities.ts [CMP]): "Your own summarizer … The
 * summarization call, its prompt, and the history rewrite"
 * (https://platform.claude.com/docs/build-with-claude/compaction, "Choose how to compact").
 */

/** What the summarizing request appends to the conversation: the model answers with the summary, in words, calling no tool. */
export const SUMMARY_INSTRUCTION = [
  'Stop here and do not call any tool. This conversation is about to be compacted to stay within the context window:',
  'everything above will be replaced by the summary you write now, which is all you will read of it afterwards.',
  'Write that summary for yourself: what the user wants and every constraint they gave, what was decided and done (files, commands, results that matter, exact names and values),',
  'what is still open and the next step; if the user\'s last message is not answered yet, quote it in full at the end. Tool results kept by reference (r1, r2, …) can be read again with read_result: name the ones that matter.',
  'Answer with the summary only.',
].join(' ');

/** The text that opens a new segment: the summary, framed so the model knows what it is. */
export function segmentOpening(summary: string): string {
  return `This conversation was compacted to stay within the context window. Your summary of everything before this point:\n\n${summary}\n\nContinue from here; the user's next words follow.`;
}

/**
 * The attachments still in force at a boundary: every one recorded before it (with the user's
 * messages, or carried by an earlier boundary), once each, in the order first sent. The summary
 * replaces the messages that carried them, so the new segment carries them again.
 */
export function attachmentsBefore(events: readonly StreamEvent[]): readonly Attachment[] {
  const byId = new Map<string, Attachment>();
  for (const e of events) {
    const list = e.type === 'user_message' || e.type === 'compacted' ? (e.attachments ?? []) : [];
    for (const a of list) if (!byId.has(a.id)) byId.set(a.id, a);
  }
  return [...byId.values()];
}

/** The summarizing request's messages: the conversation as sent, with the instruction appended to its last user message (or as a new one after a reply). */
export function withSummaryInstruction(messages: readonly ChatMessage[]): ChatMessage[] {
  const last = messages.map((m) => m.role).lastIndexOf('user');
  if (last < 0 || messages.at(-1)?.role === 'assistant') return [...messages, { role: 'user', content: [{ type: 'text', text: SUMMARY_INSTRUCTION }] }];
  return messages.map((m, i) => (i === last && m.role === 'user' ? { role: 'user', content: [...m.content, { type: 'text', text: SUMMARY_INSTRUCTION }] } : m));
}

/** Characters the model reads of an event that enters the messages (an estimate's input; definitions and system are in the last usage). */
function charsOf(e: StreamEvent): number {
  if (e.type === 'user_message') return e.text.length + (e.attachments ?? []).reduce((n, a) => n + a.text.length, 0);
  if (e.type === 'tool_result') return e.content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 1_000), 0);
  if (e.type === 'compacted') return segmentOpening(e.summary).length + (e.attachments ?? []).reduce((n, a) => n + a.text.length, 0);
  if (e.type === 'wire_change') return e.text.length;
  return 0;
}

/**
 * The next request's prompt, estimated from the stream: the last request of the current segment
 * as the API counted it (input, cache reads and writes) plus its reply, and what was recorded
 * since, in estimated tokens. A summarizing request's own usage (recorded before its boundary)
 * never counts.
 */
export function nextPromptEstimate(events: readonly StreamEvent[]): number {
  const boundary = lastCompactionBoundary(events);
  let from = boundary + 1;
  let counted = 0;
  for (let i = events.length - 1; i > boundary; i--) {
    const e = events[i];
    if (e?.type !== 'usage') continue;
    counted = e.inputTokens + e.cacheReadTokens + e.cacheWriteTokens + e.outputTokens;
    from = i + 1;
    break;
  }
  const start = counted > 0 ? from : Math.max(0, boundary);
  const since = events.slice(start).reduce((n, e) => n + charsOf(e), 0);
  return counted + tokensOfChars(since);
}
