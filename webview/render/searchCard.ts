import type { FoundTool, HistoryItem } from '../../src/protocol';
import { h, icon } from '../dom';
import { renderOutput } from './output';
import { statusIcon } from './toolCard';

type SearchItem = Extract<HistoryItem, { kind: 'search' }>;

function queryOf(item: SearchItem): string {
  const q = item.input['query'];
  return typeof q === 'string' ? q : '';
}

function foundRow(tool: FoundTool): HTMLLIElement {
  const usable = tool.status === 'usable';
  return h(
    'li',
    { class: 'found-tool' },
    h('code', { class: 'tool-name' }, tool.name),
    h('span', { class: `badge ${usable ? 'badge-usable' : 'badge-unavailable'}`, title: usable ? 'The model can call this tool now' : 'Found, but its configuration keeps it off' }, tool.status),
    tool.promoted ? h('span', { class: 'badge badge-promoted', title: 'This search turned the tool on for the rest of the conversation' }, icon('arrow-up'), 'promoted') : null,
  );
}

/** Matches past quiver.search.maxLoadTokens: the model saw their names and may load one by searching for it. */
function notLoadedRow(names: readonly string[]): HTMLElement {
  return h(
    'div',
    { class: 'not-loaded muted', title: 'Matched, but past the load budget (quiver.search.maxLoadTokens): named to the model, which loads one by searching for its exact name' },
    'Not loaded: ',
    ...names.flatMap((name, i) => [i > 0 ? ', ' : '', h('code', { class: 'tool-name' }, name)]),
  );
}

/** The search_tools card: what was found, which results are usable, and what this search promoted. */
export function renderSearchCard(item: SearchItem, open: boolean | null): HTMLElement {
  const outcome = item.outcome;
  const details = h('details', { class: `card search-card status-${outcome.status}` });
  details.open = open ?? outcome.status !== 'running';
  const query = queryOf(item);
  let stats = '';
  if (outcome.status === 'done') {
    const promoted = outcome.found.filter((f) => f.promoted).length;
    const listed = outcome.notLoaded.length > 0 ? `, ${outcome.notLoaded.length} not loaded` : '';
    stats = outcome.found.length === 0 ? 'nothing found' : `${outcome.found.length} found${promoted > 0 ? `, ${promoted} promoted` : ''}${listed}`;
  } else if (outcome.status === 'error') {
    stats = 'failed';
  } else if (outcome.status === 'cancelled') {
    stats = 'cancelled';
  }
  details.append(
    h(
      'summary',
      {},
      icon('chevron-right', 'chevron'),
      outcome.status === 'done' ? icon('search', 'status-icon') : statusIcon(outcome.status),
      h('span', { class: 'card-title' }, h('span', { class: 'muted' }, 'Searched tools for '), h('span', { class: 'search-query' }, `“${query}”`)),
      stats ? h('span', { class: 'card-state' }, stats) : null,
    ),
  );
  const body = h('div', { class: 'card-body' });
  if (outcome.status === 'done' && outcome.found.length > 0) {
    body.append(h('ul', { class: 'found-list' }, ...outcome.found.map(foundRow)));
    if (outcome.notLoaded.length > 0) body.append(notLoadedRow(outcome.notLoaded));
  } else if (outcome.status === 'done') body.append(h('div', { class: 'muted' }, 'No discoverable tool matched.'));
  else if (outcome.status === 'error') body.append(renderOutput(outcome.output));
  else if (outcome.status === 'running') body.append(h('div', { class: 'muted' }, 'Searching…'));
  else body.append(h('div', { class: 'muted' }, 'The turn ended before the search finished.'));
  details.append(body);
  return details;
}
