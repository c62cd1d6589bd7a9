import type { SearchReport } from './commitBuffer';

const NO_MATCH = 'No tools matched, and none was left out: every tool you can load was searched. Try other keywords (a verb and an object, e.g. "create issue").';
const ALREADY_LOADED = 'Tools under "already_loaded" are loaded already: call them directly.';
const HOW_TO_SIGN_IN = 'in the Tools view, click the server\'s "Sign in required" row, or run the command "Quiver: Sign In to MCP Server…"';

function servers(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`).join(', ');
  return names.length === 1 ? `MCP server ${quoted}, which waits` : `MCP servers ${quoted}, which wait`;
}

/** What the user must do for the matches and servers behind a sign-in, and what it means for the model meanwhile. */
function signInNotes({ signInRequired, waitingForSignIn }: SearchReport): string[] {
  const behind = [...new Set(signInRequired.map((h) => h.server))];
  return [
    behind.length > 0
      ? `Tools under "sign_in_required" are on ${servers(behind)} for the user to sign in: they cannot be loaded or called until then. Tell the user to sign in (${HOW_TO_SIGN_IN}), then search again.`
      : undefined,
    waitingForSignIn.length > 0
      ? `Under "waiting_for_sign_in": ${servers(waitingForSignIn)} for the user to sign in; ${waitingForSignIn.length === 1 ? 'its' : 'their'} tools are not known until then, so they were not searched. If the task may need ${waitingForSignIn.length === 1 ? 'it' : 'them'}, tell the user to sign in (${HOW_TO_SIGN_IN}).`
      : undefined,
  ].filter((n): n is string => n !== undefined);
}

/** What servers still starting mean for the search: their tools were not searched, and will be once they are up. */
function startingNote({ serversStarting }: SearchReport): string[] {
  if (serversStarting.length === 0) return [];
  const quoted = serversStarting.map((n) => `"${n}"`).join(', ');
  const one = serversStarting.length === 1;
  return [`Under "servers_starting": MCP ${one ? 'server' : 'servers'} ${quoted}, still starting; ${one ? 'its' : 'their'} tools are not listed yet, so they were not searched. If the task may need ${one ? 'it' : 'them'}, search again in a few seconds.`];
}

/** The lists a search names besides its results, each only when not empty. */
function namedLists({ alreadyLoaded, signInRequired, waitingForSignIn, serversStarting }: SearchReport): Record<string, unknown> {
  return {
    ...(alreadyLoaded.length > 0 ? { already_loaded: alreadyLoaded.map(({ name, summary }) => ({ name, summary })) } : {}),
    ...(signInRequired.length > 0 ? { sign_in_required: signInRequired.map(({ name, summary, server }) => ({ name, summary, server })) } : {}),
    ...(waitingForSignIn.length > 0 ? { waiting_for_sign_in: waitingForSignIn } : {}),
    ...(serversStarting.length > 0 ? { servers_starting: serversStarting } : {}),
  };
}

/** The first words of an answer with nothing to load: whether anything matched elsewhere, and so was left out. */
function emptyNote(report: SearchReport): string {
  const elsewhere = [...signInNotes(report), ...startingNote(report)];
  if (report.alreadyLoaded.length > 0) return [`No tool that is not loaded yet matched. ${ALREADY_LOADED}`, ...elsewhere].join(' ');
  if (elsewhere.length > 0) return ['No tool you can load now matched.', ...elsewhere].join(' ');
  return NO_MATCH;
}

/**
 * The text search_tools returns, reporting what committed rather than what matched: `usable`
 * tools can be called in the next reply (named only: the definition they load carries their
 * description, and a summary beside it would be paid again on every later request), `found,
 * unavailable` ones were turned off in this
 * same step and cannot; `not_loaded` names the matches the load budget kept out (ranked below
 * the ones it promoted), each loadable by a search for its exact name; `already_loaded` names
 * the matches that were loaded before this search (the RFD keeps them out of `results`, since
 * promoting them would change nothing, but not out of the answer: a model told "no tools
 * matched" would take a tool it can call for missing); `sign_in_required` and
 * `waiting_for_sign_in` name what a sign-in keeps out, with what the user must do;
 * `servers_starting` the servers whose tools were not listed yet, so not searched. An answer
 * with nothing to load says whether anything was left out, and why.
 */
export function renderSearchResult(report: SearchReport): string {
  const { found, notLoaded, alreadyLoaded, total } = report;
  if (found.length === 0 && notLoaded.length === 0) {
    return JSON.stringify({ results: [], ...namedLists(report), total, note: emptyNote(report) });
  }
  const usable = found.filter((f) => f.status === 'usable').length;
  const listed = found.length + notLoaded.length;
  const notes = [
    usable > 0 ? '"usable": callable in your next reply.' : undefined,
    usable < found.length ? 'Tools marked "found, unavailable" were turned off and cannot be called.' : undefined,
    notLoaded.length > 0 ? '"not_loaded": not loaded; to load one, search its exact name with limit 1.' : undefined,
    alreadyLoaded.length > 0 ? ALREADY_LOADED : undefined,
    ...signInNotes(report),
    ...startingNote(report),
    total > listed ? `${total - listed} more matched; if none fits, search with other words or a higher limit.` : undefined,
  ].filter((n): n is string => n !== undefined);
  return JSON.stringify({
    results: found.map(({ name, summary, status }) => (status === 'usable' ? { name, status } : { name, summary, status })),
    ...(notLoaded.length > 0 ? { not_loaded: notLoaded.map(({ name, summary }) => ({ name, summary })) } : {}),
    ...namedLists(report),
    total,
    note: notes.join(' '),
  });
}
