/**
 * Edit distance (insert, delete, substitute, swap of neighbours), giving up as soon as it
 * must exceed `max`: the answer is then `max + 1`. Bounded so that checking a misspelling
 * against a whole vocabulary stays cheap.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Three reused rows: this runs against thousands of candidate terms per unknown query word.
  const width = b.length + 1;
  if (rows.length < width * 3) rows = new Int32Array(width * 6);
  let prevPrev = 0;
  let prev = width;
  let row = width * 2;
  for (let j = 0; j < width; j++) rows[prev + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[row] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let d = Math.min((rows[prev + j] ?? 0) + 1, (rows[row + j - 1] ?? 0) + 1, (rows[prev + j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) d = Math.min(d, (rows[prevPrev + j - 2] ?? 0) + 1);
      rows[row + j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const t = prevPrev;
    prevPrev = prev;
    prev = row;
    row = t;
  }
  return Math.min(rows[prev + b.length] ?? max + 1, max + 1);
}

let rows = new Int32Array(64 * 3);

/** The candidates closest to `word` within `max` edits, closest first, then alphabetically. */
export function closest(word: string, candidates: Iterable<string>, max: number, limit: number): string[] {
  const found: [string, number][] = [];
  for (const c of candidates) {
    const d = editDistance(word, c, max);
    if (d <= max) found.push([c, d]);
  }
  found.sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return found.slice(0, limit).map(([c]) => c);
}
