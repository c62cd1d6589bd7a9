import type { Relevance } from './loadBudget';

/** `quiver.search.preload`. */
export type SearchPreloadSetting = 'on' | 'off';

/** How many of a message's best matches a preload may load at most. */
export const PRELOAD_MAX = 2;

/**
 * The score margin that makes the ranker confident: a preload loads the top n (1 or 2) matches
 * only when the next match scores below (1 − margin) × the n-th. Valued in cost units saved per
 * message in the prompt-cache table's conversation (a right preload saves a search round trip,
 * worth about 1,700 wrongly loaded tokens there, so recall pays more than precision). With the
 * ranker's action clash (toolIndex.ts), dev ranks 0 > 0.05 > 0.1 > 0.15 > 0.2; 0 loses on
 * MetaTool (held out) against 0.1, 0.05 gains there too, so 0.05 ships (`npm run bench`: search's
 * preload table, and the prompt-cache table for both conversations).
 */
export const PRELOAD_MARGIN = 0.05;

/**
 * Below this score the best match is no evidence at all, whatever the gap behind it: a message
 * that needs no tool still brushes a word or two of some description ("Summarize the newest
 * one." scores 2.0 and "Summarize everything so far." 0.9 in the prompt-cache bench's
 * catalogue). Every development query needs a tool, so dev cannot choose it: floors from 2 to 8
 * load the same there. A match in a name tier is evidence of its own.
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
