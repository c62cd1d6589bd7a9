/** Which of a search's ranked results load into the conversation and which are only listed. */
export interface LoadSplit<T> {
  /** The best results that are relevant enough and whose definitions fit the budget together; never empty when results exist. */
  readonly loaded: readonly T[];
  /** The rest, best first: named to the model, not loaded. */
  readonly notLoaded: readonly T[];
}

/** How well a result matched its query, as the ranker ordered it (see RankedTool). */
export interface Relevance {
  readonly score: number;
  readonly tier: number;
}

/**
 * A match loads only when its score is at least this share of the best match's. Chosen on the
 * development queries: the largest multiple of 0.05 at which no gold tool there stops loading at
 * any budget (0.36 is the last that loses none without a budget, 0.42 at the default one); MetaTool,
 * held out, was only measured after. `npm run bench` (search) shows both with and without it.
 */
export const RELEVANCE_RATIO = 0.35;

/**
 * Whether `result` is close enough to the search's best match to load with it. A different name
 * tier is never close: when the query spells or begins a tool's name, that tool is the one asked
 * for, and the others rank below it on other evidence.
 */
export function closeToBest(result: Relevance, best: Relevance, ratio = RELEVANCE_RATIO): boolean {
  return result.tier === best.tier && result.score >= ratio * best.score;
}

/**
 * Splits ranked results by relevance and by the estimated tokens their definitions add to every
 * later request. The best result always loads, however large, so a search for one tool's exact
 * name can load it; the others load in rank order while each is `relevant` and the running
 * total stays within `budget`, and the first that is not or does not fit ends the loaded part.
 * Stopping there (rather than skipping to smaller ones further down) keeps "loaded" meaning
 * "the best N", so whatever a search lists as not loaded ranks below what that search loaded.
 */
export function splitByLoadBudget<T>(ranked: readonly T[], tokensOf: (result: T) => number, budget: number, relevant: (result: T) => boolean = () => true): LoadSplit<T> {
  let spent = 0;
  let n = 0;
  while (n < ranked.length) {
    const result = ranked[n] as T;
    const cost = tokensOf(result);
    if (n > 0 && (!relevant(result) || spent + cost > budget)) break;
    spent += cost;
    n++;
  }
  return { loaded: ranked.slice(0, n), notLoaded: ranked.slice(n) };
}
