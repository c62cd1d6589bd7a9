import type { StreamEvent } from '../stream/events';

/**
 * A kept result's reference: `r` and a number, unique within its conversation. A ref is the only
 * thing that names a file of the result store, so one that matches this pattern and a result the
 * conversation recorded names that result and nothing else.
 */
export const RESULT_REF = /^r[1-9][0-9]{0,8}$/;

export function isResultRef(value: string): boolean {
  return RESULT_REF.test(value);
}

/** The refs of the results this stream kept, in the order they were recorded. */
export function keptRefs(events: readonly StreamEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'tool_result' && e.kept !== undefined ? [e.kept.ref] : []));
}

/**
 * The ref numbers results kept from now on take, counting on from the highest recorded (a result
 * kept by a cycle that never recorded it is overwritten, which nothing can have read).
 */
export function refCounter(events: readonly StreamEvent[]): () => string {
  let n = keptRefs(events).reduce((max, ref) => Math.max(max, Number(ref.slice(1))), 0);
  return () => `r${++n}`;
}
