import type { Relevance } from './loadBudget';

/** `quiver.search.preload`. */
export type SearchPreloadSetting = 'on' | 'off';

/** How many of a message's best matches a preload may load at most. */
export const PRELOAD_MAX = 2;

/**
 * The score margin that makes the ranker confident: a preload loads the top n (1 or 2) matches
 * only when the next match scores below (1 − margin) × the n-th. Chosen on the development
 * queries by gold tools loaded minus wrong tools loaded per message (a wrong one costs about
 * what a right one saves): 0.1 scores best there but loses on MetaTool, held out; 0.2, second
 * on dev, holds (`npm run bench`, search: the preload table).
 */
export const PRELOAD_MARGIN = 0.2;

/**
 * Below this score the best match is no evidence at all, whatever the gap behind it: a message
 * that needs no tool ("Summarize everything so far.") still brushes a word or two of some
 * description (scores under 1 in the bench's catalogue), while every confident match of the
 * development queries scores 12 or more. A match in a name tier is evidence of its own.
 */
export const PRELOAD_MIN_SCORE = 5;

/**
 * Which of a message's ranked matches (best first) to load before the first request: the top
 * one, or the top two when they stand together, when a clear gap follows them (the next scores
 * under (1 − margin) × the last loaded, or falls in a lower name tier); none when no such gap
 * comes within the first two, or when the best match scores under PRELOAD_MIN_SCORE. The ranking is relative, so the rule is too: a message that
 * matches every tool a little matches none of them confidently.
 */
export function confidentMatches<T extends Relevance>(ranked: readonly T[], margin = PRELOAD_MARGIN): T[] {
  const best = ranked[0];
  if (best === undefined || (best.tier === 0 && best.score < PRELOAD_MIN_SCORE)) return [];
  for (let n = 1; n <= Math.min(PRELOAD_MAX, ranked.length); n++) {
    const last = ranked[n - 1] as T;
    const next = ranked[n];
    if (next === undefined || next.tier < last.tier || next.score < (1 - margin) * last.score) return ranked.slice(0, n);
  }
  return [];
}
