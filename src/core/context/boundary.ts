import type { StreamEvent } from '../stream/events';

const summarizes = (e: StreamEvent): boolean => e.type === 'assistant_message' && e.content.some((b) => b.type === 'compaction' && b.summary !== null);

/**
 * Where the stream's latest compaction boundary is, or -1: a reply holding a compaction with a
 * summary (one without is a failed compaction, a no-op), or Quiver's own `compacted` event.
 */
export function lastCompactionBoundary(events: readonly StreamEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e !== undefined && (e.type === 'compacted' || summarizes(e))) return i;
  }
  return -1;
}

/**
 * Where the wire's current segment starts, or -1 when it sends the conversation from its start:
 * Quiver's latest `compacted` event, or the latest on-demand compaction reply, whose block goes
 * first in `messages` "in place of the messages it summarizes"
 * (https://platform.claude.com/docs/build-with-claude/compaction, "Choose how to compact"). A
 * boundary the API set at its threshold is not one: its reply is appended as usual and the API
 * drops what came before the block (same table).
 */
export function segmentStart(events: readonly StreamEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'compacted' || (e?.type === 'assistant_message' && e.onDemand === true && summarizes(e))) return i;
  }
  return -1;
}
