import assert from 'node:assert/strict';
import type { FoundTool, HistoryItem } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type SearchCardModule = typeof import('../../../webview/render/searchCard.js');
type SearchItem = Extract<HistoryItem, { kind: 'search' }>;

// Modules that bind the VS Code API when they load: loaded afresh here, so posts reach this file's globals.
const BOUND_MODULES = ['../../../webview/vscodeApi.js', '../../../webview/render/searchCard.js'];

const row = (name: string, status: FoundTool['status'], tokens: number | null = null): FoundTool => ({ name, status, tokens });
const searchItem = (found: readonly FoundTool[], query = 'echo back a message'): SearchItem => ({ kind: 'search', id: 's1', input: { query }, outcome: { status: 'done', found } });

describe('webview search card', () => {
  let globals: BrowserGlobals;
  let card: SearchCardModule;

  before(async () => {
    globals = installBrowserGlobals();
    for (const m of BOUND_MODULES) Reflect.deleteProperty(require.cache, require.resolve(m));
    card = await import('../../../webview/render/searchCard.js');
  });
  after(() => {
    for (const m of BOUND_MODULES) Reflect.deleteProperty(require.cache, require.resolve(m));
    globals.remove();
  });

  const ten = [
    row('everything__echo', 'loaded', 73),
    row('git__git_tag', 'loaded', 505),
    row('git__git_merge', 'loaded', 3200),
    ...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => row(`chart__generate_${n}_chart`, 'not loaded')),
  ];

  it('a preload card says what was loaded for the message, and its rows unload like a search\'s', () => {
    const preload: SearchItem = { kind: 'search', id: 'p1', input: {}, outcome: { status: 'done', found: [row('slack__post_message', 'loaded', 120)] }, preload: true };
    const el = card.renderSearchCard(preload, null);
    assert.equal(el.querySelector('.card-title')?.textContent, 'Loaded for this message: slack__post_message');
    assert.ok(el.querySelector('button.unload'), 'Unload on the loaded row');
  });

  it('is collapsed unless the user opened it, and its header counts every row once, with what it adds to each request', () => {
    const el = card.renderSearchCard(searchItem(ten), null) as HTMLDetailsElement;
    assert.equal(el.open, false);
    assert.equal(card.renderSearchCard(searchItem(ten), true).hasAttribute('open'), true);
    const summary = el.querySelector('summary');
    assert.equal(summary?.querySelector('.search-counts')?.textContent, '10 found: 3 loaded, 7 not loaded');
    assert.equal(summary?.querySelector('.search-cost')?.textContent, '+3.8k tokens a request');
    assert.equal(summary?.querySelector('.card-title')?.getAttribute('title'), 'Searched tools for “echo back a message”', 'the whole query, however the header is cut');
  });

  it('counts unloaded, already on and unavailable rows too, so the parts add up to what was found', () => {
    const mixed = [row('a__x', 'loaded', 10), row('a__y', 'unloaded', 20), row('a__z', 'already on'), row('a__w', 'unavailable'), row('a__v', 'not loaded'), row('a__u', 'not loaded')];
    const el = card.renderSearchCard(searchItem(mixed), null);
    assert.equal(el.querySelector('.search-counts')?.textContent, '6 found: 1 loaded, 1 unloaded, 1 already on, 2 not loaded, 1 unavailable');
    assert.equal(el.querySelector('.search-cost')?.textContent, '+10 tokens a request', 'an unloaded tool no longer costs anything');
    assert.equal(card.renderSearchCard(searchItem([row('a__y', 'unloaded', 20)]), null).querySelector('.search-cost'), null);
    assert.equal(card.renderSearchCard(searchItem([]), null).querySelector('.search-counts')?.textContent, 'nothing found');
  });

  it('shows each tool on a row of its own: its full name in code, one status, and Unload only while it is loaded', () => {
    const el = card.renderSearchCard(searchItem([row('git__git_diff', 'loaded', 340), row('git__git_tag', 'unloaded', 505), row('git__git_log', 'not loaded')]), null);
    const rows = [...el.querySelectorAll('.found-tool')];
    assert.deepEqual(rows.map((r) => r.querySelector('code.tool-name')?.textContent), ['git__git_diff', 'git__git_tag', 'git__git_log']);
    assert.equal(rows[0]?.querySelectorAll('code.tool-name wbr').length, 2, 'git__git_diff may wrap after git__ and git_, never mid-word');
    assert.deepEqual(rows.map((r) => r.querySelectorAll('.found-status').length), [1, 1, 1]);
    assert.deepEqual(rows.map((r) => r.querySelector('.found-status')?.textContent), ['loaded · 340 tok', 'unloaded', 'not loaded']);
    assert.deepEqual(rows.map((r) => r.querySelector('button')?.textContent ?? null), ['Unload', null, null]);
  });

  it('names a match behind a server waiting for sign-in, and a server it could not search, with how to sign in', () => {
    const item: SearchItem = { ...searchItem([row('guarded__whoami', 'sign in required')], 'whoami'), outcome: { status: 'done', found: [row('guarded__whoami', 'sign in required')], waitingForSignIn: ['linear'] } };
    const el = card.renderSearchCard(item, true);
    assert.equal(el.querySelector('.search-counts')?.textContent, '1 found: 1 sign in required');
    const status = el.querySelector('.found-sign-in-required .found-status');
    assert.equal(status?.textContent, 'sign in required');
    assert.match(status?.getAttribute('title') ?? '', /^Its server waits for you to sign in: the model cannot load or call it until then, and was told so\. To sign in, click its "Sign in required" row in the Tools view/);
    assert.equal(el.querySelector('.not-searched')?.textContent, 'Not searched: linear waits for you to sign in, and its tools are not known until then. To sign in, click its "Sign in required" row in the Tools view, or run Quiver: Sign In to MCP Server….');
    const empty = card.renderSearchCard({ ...item, outcome: { status: 'done', found: [], waitingForSignIn: ['linear'] } }, true);
    assert.deepEqual([...empty.querySelectorAll('.card-body > div')].map((d) => d.textContent?.slice(0, 25)), ['No discoverable tool matc', 'Not searched: linear wait']);
  });

  it('names a server it could not search because it was still starting', () => {
    const el = card.renderSearchCard({ ...searchItem([], 'query'), outcome: { status: 'done', found: [], serversStarting: ['db'] } }, true);
    assert.deepEqual([...el.querySelectorAll('.card-body > div')].map((d) => d.textContent), ['No discoverable tool matched.', 'Not searched: db was still starting, and its tools were not listed yet.']);
  });

  it('Unload asks the host to turn that tool off, once', () => {
    globals.posted.length = 0;
    const el = card.renderSearchCard(searchItem([row('git__git_diff', 'loaded', 340)]), true);
    const unload = el.querySelector<HTMLButtonElement>('.found-tool button.unload');
    assert.ok(unload);
    unload.click();
    unload.click();
    assert.deepEqual(globals.posted, [{ type: 'unloadTool', name: 'git__git_diff' }]);
    assert.equal(unload.disabled, true);
  });

  it('says when the search is still running, failed or was cut off by the turn ending', () => {
    const state = (outcome: SearchItem['outcome']) => card.renderSearchCard({ ...searchItem([]), outcome }, null).querySelector('.card-state')?.textContent;
    assert.equal(state({ status: 'running' }), 'searching…');
    assert.equal(state({ status: 'error', output: [{ kind: 'text', text: 'empty query' }] }), 'failed');
    assert.equal(state({ status: 'cancelled' }), 'cancelled');
  });
});
