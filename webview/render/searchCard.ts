import { formatTokens, type FoundStatus, type FoundTool, type HistoryItem } from '../../src/protocol';
import { button, h, icon } from '../dom';
import { post } from '../vscodeApi';
import { renderOutput } from './output';
import { statusIcon } from './toolCard';

type SearchItem = Extract<HistoryItem, { kind: 'search' }>;
type SearchDone = Extract<SearchItem['outcome'], { status: 'done' }>;

/** The order the header counts them in: what the search added first, then what it left. */
const STATUSES: readonly FoundStatus[] = ['loaded', 'unloaded', 'already on', 'not loaded', 'unavailable', 'sign in required'];

const HOW_TO_SIGN_IN = 'click its "Sign in required" row in the Tools view, or run Quiver: Sign In to MCP Server…';

const STATUS_TITLE: Record<FoundStatus, string> = {
  loaded: 'This search loaded it: the model can call it, and its definition goes with every later request of this chat',
  unloaded: 'This search loaded it, and it has been turned off for this chat since: later requests no longer offer it',
  'already on': 'It was on already when this search ran: the model can call it',
  'not loaded': 'Named to the model but not loaded (not close enough to the best match, or past quiver.search.maxLoadTokens): a search for its exact name loads it',
  unavailable: 'Found, but turned off: the model cannot call it',
  'sign in required': `Its server waits for you to sign in: the model cannot load or call it until then, and was told so. To sign in, ${HOW_TO_SIGN_IN}`,
};

function queryOf(item: SearchItem): string {
  const q = item.input['query'];
  return typeof q === 'string' ? q : '';
}

function unloadButton(tool: FoundTool): HTMLButtonElement {
  const b = button({
    label: 'Unload',
    title: `Turn ${tool.name} off for this chat, so later requests no longer carry its definition`,
    class: 'unload',
    onClick: () => {
      // One click is one toggle: the host redraws the row as unloaded.
      b.disabled = true;
      post({ type: 'unloadTool', name: tool.name });
    },
  });
  return b;
}

/** A tool's name in full, free to wrap after each `_` and `-` (where its words end) rather than mid-word. */
function toolName(name: string): HTMLElement {
  const parts = name.split(/(?<=[_-])(?=[^_-])/);
  return h('code', { class: 'tool-name' }, ...parts.flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), part])));
}

/** One row per tool: its name in full, the one status saying what this search did with it, and Unload while it is loaded. */
function foundRow(tool: FoundTool): HTMLLIElement {
  const cost = tool.tokens !== null && tool.status === 'loaded' ? ` · ${formatTokens(tool.tokens)} tok` : '';
  return h(
    'li',
    { class: `found-tool found-${tool.status.replaceAll(' ', '-')}` },
    toolName(tool.name),
    h('span', { class: 'found-status', title: STATUS_TITLE[tool.status] }, `${tool.status}${cost}`),
    tool.status === 'loaded' ? unloadButton(tool) : null,
  );
}

/** A server the search could not look into: it waits for sign-in and its tools are not known yet (the model was told so too). */
function notSearchedLine(server: string): HTMLElement {
  return h('div', { class: 'muted not-searched' }, `Not searched: ${server} waits for you to sign in, and its tools are not known until then. To sign in, ${HOW_TO_SIGN_IN}.`);
}

function startingLine(server: string): HTMLElement {
  return h('div', { class: 'muted not-searched' }, `Not searched: ${server} was still starting, and its tools were not listed yet.`);
}

/** "10 found: 3 loaded, 7 not loaded": every row counted once, so the parts add up to the whole. */
export function searchCounts(outcome: SearchDone): string {
  if (outcome.found.length === 0) return 'nothing found';
  const parts = STATUSES.map((s) => [s, outcome.found.filter((f) => f.status === s).length] as const).filter(([, n]) => n > 0);
  return `${outcome.found.length} found: ${parts.map(([s, n]) => `${n} ${s}`).join(', ')}`;
}

/** What the search adds to every later request: the estimated definitions of what it loaded and still has loaded. */
function addedCost(outcome: SearchDone): string | null {
  const tokens = outcome.found.reduce((sum, f) => sum + (f.status === 'loaded' ? (f.tokens ?? 0) : 0), 0);
  return tokens > 0 ? `+${formatTokens(tokens)} tokens a request` : null;
}

/** The header's figures: beside the query what the search adds to each request, below it the counts. */
function headerState(item: SearchItem): (HTMLElement | null)[] {
  const outcome = item.outcome;
  if (outcome.status === 'done') {
    const cost = addedCost(outcome);
    return [
      cost !== null ? h('span', { class: 'card-state search-cost', title: 'Estimated tokens of the definitions this search loaded, which every later request of this chat carries (Unload a row to stop that)' }, cost) : null,
      h('span', { class: 'card-state search-counts' }, searchCounts(outcome)),
    ];
  }
  if (outcome.status === 'error') return [h('span', { class: 'card-state state-error' }, 'failed')];
  if (outcome.status === 'cancelled') return [h('span', { class: 'card-state' }, 'cancelled')];
  return [h('span', { class: 'card-state' }, 'searching…')];
}

const PRELOAD_TITLE = 'Quiver matched your message to these tools and loaded them with it (quiver.search.preload), so the model could call them without a search';

/** "Searched tools for “query”", or for a preload "Loaded for this message: a, b". */
function cardTitle(item: SearchItem): HTMLElement {
  if (item.preload === true && item.outcome.status === 'done') {
    const names = item.outcome.found.map((f) => f.name).join(', ');
    return h('span', { class: 'card-title', title: PRELOAD_TITLE }, h('span', { class: 'muted search-title-prefix' }, 'Loaded for this message: '), h('span', { class: 'search-query' }, names));
  }
  const query = queryOf(item);
  return h('span', { class: 'card-title', title: `Searched tools for “${query}”` }, h('span', { class: 'muted search-title-prefix' }, 'Searched tools for '), h('span', { class: 'search-query' }, `“${query}”`));
}

/**
 * The search_tools card: the query and what the search added to every later request in its
 * header, and one row per match with what the search did with it. Collapsed unless the user
 * opened it: the header says what matters.
 */
export function renderSearchCard(item: SearchItem, open: boolean | null): HTMLElement {
  const outcome = item.outcome;
  const details = h('details', { class: `card search-card status-${outcome.status}` });
  details.open = open ?? false;
  details.append(
    h(
      'summary',
      {},
      icon('chevron-right', 'chevron'),
      outcome.status === 'done' ? icon('search', 'status-icon') : statusIcon(outcome.status),
      cardTitle(item),
      ...headerState(item),
    ),
  );
  const body = h('div', { class: 'card-body' });
  if (outcome.status === 'done' && outcome.found.length > 0) body.append(h('ul', { class: 'found-list' }, ...outcome.found.map(foundRow)));
  else if (outcome.status === 'done') body.append(h('div', { class: 'muted' }, 'No discoverable tool matched.'));
  if (outcome.status === 'done') body.append(...(outcome.waitingForSignIn ?? []).map(notSearchedLine), ...(outcome.serversStarting ?? []).map(startingLine));
  else if (outcome.status === 'error') body.append(renderOutput(outcome.output));
  else if (outcome.status === 'running') body.append(h('div', { class: 'muted' }, 'Searching…'));
  else body.append(h('div', { class: 'muted' }, 'The turn ended before the search finished.'));
  details.append(body);
  return details;
}
