import type { FoundStatus } from './commitBuffer';

/**
 * The text search_tools returns, reporting what committed rather than what matched: `usable`
 * tools can be called in the next reply, `found, unavailable` ones were turned off in this
 * same step and cannot.
 */
export function renderSearchResult(found: readonly FoundStatus[], total: number): string {
  if (found.length === 0) {
    return JSON.stringify({ results: [], total, note: 'No tools matched. Try other keywords (a verb and an object, e.g. "create issue").' });
  }
  const usable = found.filter((f) => f.status === 'usable').length;
  const notes = [
    usable > 0 ? 'Tools marked "usable" can be called in your next reply.' : undefined,
    usable < found.length ? 'Tools marked "found, unavailable" were turned off and cannot be called.' : undefined,
    total > found.length ? `${total - found.length} more matched; narrow the query or raise limit to see them.` : undefined,
  ].filter((n): n is string => n !== undefined);
  return JSON.stringify({ results: found.map(({ name, summary, status }) => ({ name, summary, status })), total, note: notes.join(' ') });
}
