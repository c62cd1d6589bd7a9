import { baseName } from './attachment';

/**
 * Ranks workspace-relative paths for `#file:QUERY` completion. A path matches when the query's
 * characters appear in it in order (case-insensitive); a match in the file name beats one
 * spread over folders, a contiguous match beats a scattered one, and shorter paths win ties.
 */
export function rankFiles(query: string, paths: readonly string[], limit: number): string[] {
  const q = query.toLowerCase();
  const scored: { readonly path: string; readonly score: number }[] = [];
  for (const path of paths) {
    const score = q === '' ? 0 : matchScore(q, path);
    if (score !== null) scored.push({ path, score: score - path.length / 1000 });
  }
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}

/** null when `q` is not a subsequence of `path`. */
export function matchScore(q: string, path: string): number | null {
  const lower = path.toLowerCase();
  const name = baseName(lower);
  if (name.startsWith(q)) return 400;
  if (name.includes(q)) return 300;
  if (lower.includes(q)) return 200;
  return subsequenceScore(q, lower);
}

function subsequenceScore(q: string, lower: string): number | null {
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = lower.indexOf(ch, from);
    if (at < 0) return null;
    if (at === previous + 1) score += 5;
    if (at === 0 || /[\\/._-]/.test(lower[at - 1] ?? '')) score += 10;
    previous = at;
    from = at + 1;
  }
  return score;
}
