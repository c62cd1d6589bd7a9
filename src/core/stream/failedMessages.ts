import type { StreamEvent } from './events';

/**
 * The user messages that were not sent: their turn ended in error before any reply came, so no
 * request holding them ever succeeded. They are never sent again, or a message the API rejects
 * (a 401, a 400) would ride along with the next one and fail it too; the user retries, edits or
 * drops them instead. Regenerating right after the failure retries the message in place.
 * Keys are positions in the stream; each maps to the error's cause in a few words (recorded with
 * the turn's end; undefined in a stream written before causes were).
 */
export function failedMessages(events: readonly StreamEvent[]): ReadonlyMap<number, string | undefined> {
  const failed = new Map<number, string | undefined>();
  const dropped = droppedMessages(events);
  let latest: number | undefined;
  let unanswered: number | undefined;
  events.forEach((e, i) => {
    if (e.type === 'user_message') latest = unanswered = i;
    else if (e.type === 'restart') {
      // A message the user dropped (or took back with Edit) stays out, Regenerate or not.
      if (latest !== undefined && !dropped.has(latest) && failed.delete(latest)) unanswered = latest;
    } else if (e.type === 'assistant_message') unanswered = undefined;
    else if (e.type === 'turn_end') {
      if (e.reason === 'error' && unanswered !== undefined) failed.set(unanswered, e.cause);
      unanswered = undefined;
    }
  });
  return failed;
}

/** Failed messages the user dropped from view (a retry drops the failed copy too). */
export function droppedMessages(events: readonly StreamEvent[]): ReadonlySet<number> {
  return new Set(events.flatMap((e) => (e.type === 'message_dropped' ? [e.index] : [])));
}

/** The user message at `index` when it is one that was not sent and is still shown (Retry, Edit and Drop act on it), else undefined. */
export function retryableMessage(events: readonly StreamEvent[], index: number): Extract<StreamEvent, { type: 'user_message' }> | undefined {
  const event = events[index];
  return event?.type === 'user_message' && failedMessages(events).has(index) && !droppedMessages(events).has(index) ? event : undefined;
}
