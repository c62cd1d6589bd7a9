/** Which of a search's ranked results load into the conversation and which are only listed. */
export interface LoadSplit<T> {
  /** The best results whose definitions fit the budget together; never empty when results exist. */
  readonly loaded: readonly T[];
  /** The rest, best first: named to the model, not loaded. */
  readonly notLoaded: readonly T[];
}

/**
 * Splits ranked results by the estimated tokens their definitions add to every later request.
 * The best result always loads, however large, so a search for one tool's exact name can load
 * it; the others load in rank order while the running total stays within `budget`, and the
 * first that does not fit ends the loaded part. Stopping there (rather than skipping to smaller
 * ones further down) keeps "loaded" meaning "the best N", so whatever a search lists as not
 * loaded ranks below what that search loaded.
 */
export function splitByLoadBudget<T>(ranked: readonly T[], tokensOf: (result: T) => number, budget: number): LoadSplit<T> {
  let spent = 0;
  let n = 0;
  while (n < ranked.length) {
    const cost = tokensOf(ranked[n] as T);
    if (n > 0 && spent + cost > budget) break;
    spent += cost;
    n++;
  }
  return { loaded: ranked.slice(0, n), notLoaded: ranked.slice(n) };
}
