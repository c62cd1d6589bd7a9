import { headOf } from '../text/textCut';
import { HEAD_SHARE, n, READINGS, span, type Cut } from './cut';

const charsOf = (lines: readonly string[]): number => lines.reduce((sum, line) => sum + line.length + 1, 0);

/**
 * The head of a text's lines and, when there is more than one line, its tail (where logs end
 * and listings give their totals), cut at line boundaries within `allowance` characters. A
 * first line longer than the head's share is cut inside it, never splitting a surrogate pair.
 */
export function cutLines(text: string, allowance: number, ref: string): Cut {
  const lines = text.split('\n');
  const total = lines.length;
  const first = lines[0] as string;
  const headBudget = Math.max(0, total > 1 ? Math.floor(allowance * HEAD_SHARE) : allowance);
  let head = 0;
  for (let used = 0; head < total && used + (lines[head] as string).length + 1 <= headBudget; head++) used += (lines[head] as string).length + 1;
  // A first line over the head's share is shown in part: a view is never empty while it has room.
  const partial = head === 0 ? headOf(first, headBudget) : undefined;
  const headText = partial ?? lines.slice(0, head).join('\n');
  const shownHead = partial !== undefined ? 1 : head;
  let tail = total;
  for (let used = 0; tail > shownHead && used + (lines[tail - 1] as string).length + 1 <= allowance - headText.length; tail--) used += (lines[tail - 1] as string).length + 1;
  const tailText = lines.slice(tail).join('\n');
  const parts = headText === '' ? [] : [headText];
  if (partial !== undefined) parts.push(`[… the rest of line 1 not shown: ${n(first.length - partial.length)} characters …]`);
  if (tail > shownHead) parts.push(`[… lines ${span(shownHead + 1, tail)} not shown: ${n(tail - shownHead)} lines, ${n(charsOf(lines.slice(shownHead, tail)))} characters …]`);
  if (tail < total) parts.push(tailText);
  const ranges = [
    ...(partial !== undefined ? [`line 1 (its first ${n(partial.length)} of ${n(first.length)} characters)`] : head > 0 ? [`lines ${span(1, head)}`] : []),
    ...(tail < total ? [head > 0 ? span(tail + 1, total) : `lines ${span(tail + 1, total)}`] : []),
  ];
  return {
    body: parts.join('\n'),
    shownChars: headText.length + tailText.length,
    shown: ranges.length > 0 ? `${ranges.join(' and ')} of ${n(total)}` : `none of its ${n(total)} lines`,
    readOn: total === 1 ? READINGS.characters(ref) : READINGS.lines(ref),
  };
}
