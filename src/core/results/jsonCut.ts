import { HEAD_SHARE, n, READINGS, shownKey, span, type Cut } from './cut';

type Json = unknown;

interface Target {
  /** The property holding the array, or undefined when the result is the array. */
  readonly key: string | undefined;
  readonly items: readonly Json[];
  /** The JSON around the array, compact: what comes before it and after it. */
  readonly before: string;
  readonly after: string;
}

/** Stands for the array while the JSON around it is serialized. */
const HOLE = '\u0000quiver-array\u0000';

/**
 * The array a JSON result is mostly made of: the result itself, or the largest array among its
 * top-level properties (`{"total_count": …, "items": […]}`) when that is at least half of it.
 */
function targetOf(value: Json): Target | undefined {
  if (Array.isArray(value)) return { key: undefined, items: value, before: '', after: '' };
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Readonly<Record<string, Json>>;
  const arrays = Object.entries(record).filter((e): e is [string, Json[]] => Array.isArray(e[1]));
  const sized = arrays.map(([key, items]) => ({ key, items, size: JSON.stringify(items).length }));
  const largest = sized.reduce<(typeof sized)[number] | undefined>((best, a) => (best === undefined || a.size > best.size ? a : best), undefined);
  if (largest === undefined || largest.size < JSON.stringify(record).length / 2) return undefined;
  const [before, after] = JSON.stringify({ ...record, [largest.key]: HOLE }).split(JSON.stringify(HOLE)) as [string, string];
  return { key: largest.key, items: largest.items, before, after };
}

/**
 * A JSON result that is mostly one array, cut at element boundaries: the first elements and the
 * last ones within `allowance` characters, each on a line of its own as compact JSON, with a
 * line in between saying how many were left out. Undefined when the text is not such JSON, or
 * not even one element fits (the caller cuts it as lines instead).
 */
export function cutJsonArray(text: string, allowance: number, ref: string): Cut | undefined {
  let value: Json;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const target = targetOf(value);
  const room = allowance - (target?.before.length ?? 0) - (target?.after.length ?? 0) - 4;
  if (target === undefined || target.items.length < 2 || room <= 0) return undefined;
  const { items } = target;
  const encoded = new Map<number, string>();
  const at = (i: number): string => {
    let e = encoded.get(i);
    if (e === undefined) encoded.set(i, (e = JSON.stringify(items[i]) ?? 'null'));
    return e;
  };
  let head = 0;
  for (let used = 0; head < items.length && used + at(head).length + 2 <= room * HEAD_SHARE; head++) used += at(head).length + 2;
  if (head === 0) return undefined;
  const headChars = Array.from({ length: head }, (_, i) => at(i).length + 2).reduce((a, b) => a + b, 0);
  let tail = items.length;
  for (let used = 0; tail > head && used + at(tail - 1).length + 2 <= room - headChars; tail--) used += at(tail - 1).length + 2;
  const shownItems = [...Array.from({ length: head }, (_, i) => at(i)), ...Array.from({ length: items.length - tail }, (_, i) => at(tail + i))];
  const gap = tail > head ? [`[… elements ${span(head + 1, tail)} of ${n(items.length)} not shown: ${n(tail - head)} elements …]`] : [];
  const lines = [...shownItems.slice(0, head).map((e) => `${e},`), ...gap, ...shownItems.slice(head).map((e) => `${e},`)];
  const last = lines.length - 1;
  lines[last] = (lines[last] as string).replace(/,$/, '');
  const of = target.key === undefined ? `of ${n(items.length)}` : `of the ${n(items.length)} in ${JSON.stringify(shownKey(target.key))}`;
  const ranges = [`elements ${span(1, head)}`, ...(tail < items.length ? [span(tail + 1, items.length)] : [])];
  return {
    body: `${target.before}[\n${lines.join('\n')}\n]${target.after}`,
    shownChars: shownItems.reduce((sum, e) => sum + e.length, 0),
    shown: `${ranges.join(' and ')} ${of}`,
    readOn: READINGS.json(ref),
  };
}
