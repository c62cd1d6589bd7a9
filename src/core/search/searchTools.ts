import { z } from 'zod';
import { closeToBest } from './loadBudget';
import { fail, ok, type BuiltinResult } from './result';
import type { ToolIndex } from './toolIndex';

export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MIN = 1;
export const SEARCH_LIMIT_MAX = 50;

export interface SearchToolsHit {
  readonly name: string;
  readonly summary: string;
  /** How well it matched (the ranker's score and name tier): the fold loads only matches close to the best (loadBudget.ts). */
  readonly score: number;
  readonly tier: number;
}

export interface SearchToolsOutput {
  /** Best first: the promotion request (RFD 108: only returned tools are promoted); the turn's fold promotes those close enough to the best match, as many as the load budget allows. */
  readonly results: readonly SearchToolsHit[];
  /** How many searchable tools matched, so the model knows when `limit` cut the list short. */
  readonly total: number;
  /**
   * Matches among the tools already offered (best first, within the same limit): never
   * promoted (the RFD keeps them out of `results`), but named so that the model is not told a
   * tool it can call does not exist.
   */
  readonly alreadyLoaded: readonly SearchToolsHit[];
  /**
   * Matches among the tools of servers waiting for sign-in (best first, within the same limit,
   * close to the best of them): neither loadable nor callable until the user signs in, named so
   * that the model can tell the user what to do rather than conclude the tool does not exist.
   */
  readonly signInRequired: readonly SearchToolsHit[];
}

const SearchToolsInput = z.object({
  query: z.string({ error: '`query` must be a string describing what the tool should do.' }),
  limit: z
    .number({ error: '`limit` must be an integer between 1 and 50.' })
    .int({ error: '`limit` must be an integer between 1 and 50.' })
    .optional(),
});

/** The other tools a search ranks besides the searchable ones, each index ranked alike: none of them is ever promoted. */
export interface OtherTools {
  /** The offered tools (builtins aside), ranked into `alreadyLoaded`. */
  readonly loaded?: ToolIndex;
  /** The known tools of servers waiting for sign-in, ranked into `signInRequired`. */
  readonly behindSignIn?: ToolIndex;
}

/**
 * The `search_tools` builtin over an already-built index. `searchable` is the searchable
 * set (availability discoverable, minus offered): nothing outside it is ever returned in
 * `results`. The same query and limit rank `other`'s indexes into `alreadyLoaded` and
 * `signInRequired`. A limit outside 1–50 is clamped; one that is not an integer is an error
 * naming `limit`.
 */
export function searchTools(index: ToolIndex, searchable: ReadonlySet<string>, input: unknown, other: OtherTools = {}): BuiltinResult<SearchToolsOutput> {
  const parsed = SearchToolsInput.safeParse(input ?? {});
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'invalid input to search_tools');
  const { query, limit } = parsed.data;
  if (query.trim() === '') {
    return fail('`query` is empty: name what the tool should do, for example "create a GitHub issue" or "query postgres".');
  }
  const clamped = clampLimit(limit);
  const outcome = index.search(query, { limit: clamped, filter: (name) => searchable.has(name) });
  const results = outcome.results.map(({ name, score, tier }) => ({ name, summary: index.summary(name) ?? '', score, tier }));
  const loaded = rank(other.loaded, query, clamped, (name) => !searchable.has(name));
  const behindSignIn = rank(other.behindSignIn, query, clamped, () => true);
  const bestBehind = behindSignIn[0];
  return ok({
    results,
    total: outcome.total,
    alreadyLoaded: relevantLoaded(loaded, results),
    signInRequired: bestBehind === undefined ? [] : behindSignIn.filter((hit) => closeToBest(hit, bestBehind)),
  });
}

function rank(index: ToolIndex | undefined, query: string, limit: number, filter: (name: string) => boolean): SearchToolsHit[] {
  if (index === undefined) return [];
  return index.search(query, { limit, filter }).results.map(({ name, score, tier }) => ({ name, summary: index.summary(name) ?? '', score, tier }));
}

/**
 * The loaded matches worth naming: those close to the best of them (loadBudget's relevance rule),
 * and, beside searchable results, only those whose name matches the query at least as well as the
 * best result's does. Every name costs the model tokens in this and every later request, and the
 * two indexes' scores are not comparable: the name tier is.
 */
function relevantLoaded(loaded: readonly SearchToolsHit[], results: readonly SearchToolsHit[]): SearchToolsHit[] {
  const best = loaded[0];
  if (best === undefined) return [];
  const floor = results[0]?.tier;
  return loaded.filter((hit) => closeToBest(hit, best) && (floor === undefined || hit.tier > floor || (hit.tier === floor && floor > 0)));
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return SEARCH_LIMIT_DEFAULT;
  return Math.min(SEARCH_LIMIT_MAX, Math.max(SEARCH_LIMIT_MIN, limit));
}
