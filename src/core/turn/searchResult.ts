import type { SearchReport } from './commitBuffer';

const NO_MATCH = 'No tools matched. Try other keywords (a verb and an object, e.g. "create issue").';
const ALREADY_LOADED = 'Tools under "already_loaded" are loaded already: call them directly.';

/**
 * The text search_tools returns, reporting what committed rather than what matched: `usable`
 * tools can be called in the next reply, `found, unavailable` ones were turned off in this
 * same step and cannot; `not_loaded` names the matches the load budget kept out (ranked below
 * the ones it promoted), each loadable by a search for its exact name; `already_loaded` names
 * the matches that were loaded before this search (the RFD keeps them out of `results`, since
 * promoting them would change nothing, but not out of the answer: a model told "no tools
 * matched" would take a tool it can call for missing).
 */
export function renderSearchResult({ found, notLoaded, alreadyLoaded, total }: SearchReport): string {
  const loaded = alreadyLoaded.length > 0 ? { already_loaded: alreadyLoaded.map(({ name, summary }) => ({ name, summary })) } : {};
  if (found.length === 0 && notLoaded.length === 0) {
    const note = alreadyLoaded.length > 0 ? `No tool that is not loaded yet matched. ${ALREADY_LOADED}` : NO_MATCH;
    return JSON.stringify({ results: [], ...loaded, total, note });
  }
  const usable = found.filter((f) => f.status === 'usable').length;
  const listed = found.length + notLoaded.length;
  const notes = [
    usable > 0 ? 'Tools marked "usable" can be called in your next reply.' : undefined,
    usable < found.length ? 'Tools marked "found, unavailable" were turned off and cannot be called.' : undefined,
    notLoaded.length > 0 ? 'Tools under "not_loaded" are not loaded: you do not have their definitions (loading every match would make each later request larger); to load one, call search_tools with its exact name as the query and limit 1.' : undefined,
    alreadyLoaded.length > 0 ? ALREADY_LOADED : undefined,
    total > listed ? `${total - listed} more matched; if none of these fits, search again with other words or a higher limit.` : undefined,
  ].filter((n): n is string => n !== undefined);
  return JSON.stringify({
    results: found.map(({ name, summary, status }) => ({ name, summary, status })),
    ...(notLoaded.length > 0 ? { not_loaded: notLoaded.map(({ name, summary }) => ({ name, summary })) } : {}),
    ...loaded,
    total,
    note: notes.join(' '),
  });
}
