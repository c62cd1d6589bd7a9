import type { FoundStatus } from './commitBuffer';
import type { SearchToolsHit } from '../search';

/**
 * The text search_tools returns, reporting what committed rather than what matched: `usable`
 * tools can be called in the next reply, `found, unavailable` ones were turned off in this
 * same step and cannot; `not_loaded` names the matches the load budget kept out (ranked below
 * the ones it promoted), each loadable by a search for its exact name.
 */
export function renderSearchResult(found: readonly FoundStatus[], notLoaded: readonly SearchToolsHit[], total: number): string {
  if (found.length === 0) {
    return JSON.stringify({ results: [], total, note: 'No tools matched. Try other keywords (a verb and an object, e.g. "create issue").' });
  }
  const usable = found.filter((f) => f.status === 'usable').length;
  const listed = found.length + notLoaded.length;
  const notes = [
    usable > 0 ? 'Tools marked "usable" can be called in your next reply.' : undefined,
    usable < found.length ? 'Tools marked "found, unavailable" were turned off and cannot be called.' : undefined,
    notLoaded.length > 0 ? 'Tools under "not_loaded" are not loaded: you do not have their definitions (loading every match would make each later request larger); to load one, call search_tools with its exact name as the query and limit 1.' : undefined,
    total > listed ? `${total - listed} more matched; if none of these fits, search again with other words or a higher limit.` : undefined,
  ].filter((n): n is string => n !== undefined);
  return JSON.stringify({
    results: found.map(({ name, summary, status }) => ({ name, summary, status })),
    ...(notLoaded.length > 0 ? { not_loaded: notLoaded.map(({ name, summary }) => ({ name, summary })) } : {}),
    total,
    note: notes.join(' '),
  });
}
