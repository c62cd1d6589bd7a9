import type { StreamEvent } from '../stream/events';

/** Where the stream's latest compaction boundary is: the index of the reply holding a compaction with a summary, or -1 (one without is a failed compaction, a no-op). */
export function lastCompactionBoundary(events: readonly StreamEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e?.type === 'assistant_message' && e.content.some((b) => b.type === 'compaction' && b.summary !== null)) return i;
  }
  return -1;
}
