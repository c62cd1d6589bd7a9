/**
 * Edit distance (insert, delete, substitute, swap of neighbours), giving up as soon as it
 * must exceed `max`: the answer is then `max + 1`. Bounded so that checking a misspelling
 * against a whole vocabulary stays cheap.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, (prevPrev[j - 2] ?? 0) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return Math.min(prev[b.length] ?? max + 1, max + 1);
}

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
