import assert from 'node:assert/strict';
import { DEFAULT_RANKING, ToolIndex } from '../../../src/core/search/toolIndex';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { CATALOGUE, tool } from './fixtures';

function ranked(index: ToolIndex, query: string, filter?: (name: string) => boolean): string[] {
  return index.search(query, filter ? { filter } : {}).results.map((r) => r.name);
}

describe('ToolIndex', () => {
  it('ranks an exact name first, then name-prefix matches', () => {
    const index = new ToolIndex(CATALOGUE);
    assert.deepEqual(ranked(index, 'echo').slice(0, 2), ['everything__echo', 'everything__echo_twice']);
    assert.equal(ranked(index, 'create_pull_request')[0], 'github__create_pull_request');
    assert.equal(ranked(index, 'github__list_issues')[0], 'github__list_issues');
  });

  it('finds a tool only through a parameter name', () => {
    const index = new ToolIndex(CATALOGUE);
    assert.equal(ranked(index, 'deployment_id')[0], 'k8s__rollout_status');
  });

  it('searches nested schema properties and their descriptions', () => {
    const index = new ToolIndex(CATALOGUE);
    assert.equal(ranked(index, 'thumbnailUrl')[0], 'slack__send_message');
    assert.equal(ranked(index, 'image beside block')[0], 'slack__send_message');
  });

  it('reports the total number of matches beyond the limit', () => {
    const index = new ToolIndex(CATALOGUE);
    const outcome = index.search('github', { limit: 1 });
    assert.equal(outcome.results.length, 1);
    assert.equal(outcome.total, 3);
  });

  it('searches only what the filter lets through', () => {
    const index = new ToolIndex(CATALOGUE);
    const outcome = index.search('issue', { filter: (n) => n !== 'github__create_issue' });
    assert.ok(!outcome.results.some((r) => r.name === 'github__create_issue'));
    assert.ok(outcome.results.some((r) => r.name === 'github__list_issues'));
    assert.deepEqual(ranked(index, 'echo', () => false), []);
  });

  it('uses developer vocabulary: a ticket is an issue, a PR a pull request', () => {
    const index = new ToolIndex(CATALOGUE);
    assert.equal(ranked(index, 'file a ticket')[0], 'github__create_issue');
    assert.equal(ranked(index, 'open PR')[0], 'github__create_pull_request');
  });

  it('lifts the tools of a server the query names', () => {
    const tools = [
      tool('list_records', 'List records in a zone.', {}, 'alphadns'),
      tool('list_records', 'List records in a table.', {}, 'betadb'),
      tool('get_zone', 'Get one zone.', {}, 'alphadns'),
    ];
    const index = new ToolIndex(tools);
    assert.equal(ranked(index, 'list records betadb')[0], 'betadb__list_records');
    assert.equal(ranked(index, 'list records alphadns')[0], 'alphadns__list_records');
    // Without the evidence, a server name is one more word among the query's.
    const off = new ToolIndex(tools, { ...DEFAULT_RANKING, serverBoost: 0 });
    const on = index.search('list records betadb').results.find((r) => r.name === 'betadb__list_records')?.score ?? 0;
    const without = off.search('list records betadb').results.find((r) => r.name === 'betadb__list_records')?.score ?? 0;
    assert.ok(on > without);
  });

  it('lowers a tool whose name says another action than the request asks, and leaves one whose name says none', () => {
    const tools = [
      tool('update_issue', 'Update the issue of a crash report: its status, assignee, priority, labels, milestone and title.'),
      tool('search_issues', 'Search issues by text, such as a crash.'),
      tool('whoami', 'The issue tracker account you are signed in as.'),
    ];
    const ranked = (actionClash: number, query: string): string[] => new ToolIndex(tools, { ...DEFAULT_RANKING, actionClash }).search(query).results.map((r) => r.name);
    assert.equal(ranked(0, 'Find the crash report issue')[0], 'srv__update_issue', 'without it the words it shares win');
    assert.deepEqual(ranked(DEFAULT_RANKING.actionClash, 'Find the crash report issue').slice(0, 2), ['srv__search_issues', 'srv__update_issue']);
    assert.equal(ranked(DEFAULT_RANKING.actionClash, 'Set the crash report issue status')[0], 'srv__update_issue', 'a request to change it keeps it first');
    const account = new ToolIndex(tools).search('Which issue tracker account am I?').results;
    const plain = new ToolIndex(tools, { ...DEFAULT_RANKING, actionClash: 0 }).search('Which issue tracker account am I?').results;
    assert.equal(account.find((r) => r.name === 'srv__whoami')?.score, plain.find((r) => r.name === 'srv__whoami')?.score, 'a name without a verb keeps its score');
  });

  it('matches a misspelt word', () => {
    const index = new ToolIndex(CATALOGUE);
    assert.equal(ranked(index, 'postgress sql')[0], 'postgres__query');
  });

  it('survives tools with no description or a schema that is not an object', () => {
    const odd: ToolDefinition[] = [
      tool('blank', ''),
      { ...tool('array_schema', 'Has an array schema.'), inputSchema: [] as unknown as Record<string, unknown> },
      { ...tool('null_props', 'Has null properties.'), inputSchema: { type: 'object', properties: null } },
      { ...tool('odd_required', 'Odd required.'), inputSchema: { type: 'object', properties: { a: 5 }, required: 'a' } },
      { ...tool('no_desc', 'x'), description: undefined as unknown as string },
    ];
    const index = new ToolIndex(odd);
    assert.equal(index.size, 5);
    assert.equal(ranked(index, 'blank')[0], 'srv__blank');
    assert.equal(ranked(index, 'array schema')[0], 'srv__array_schema');
    assert.equal(index.summary('srv__no_desc'), '');
  });

  it('bounds work for very long and non-ASCII queries', () => {
    const index = new ToolIndex(CATALOGUE);
    const long = 'create issue '.repeat(50_000);
    const started = process.hrtime.bigint();
    const outcome = index.search(long, { limit: 5 });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.equal(outcome.results[0]?.name, 'github__create_issue');
    assert.ok(ms < 500, `took ${ms} ms`);
    assert.deepEqual(ranked(index, '日本語のクエリ 🚀'), []);
    assert.doesNotThrow(() => index.search('\u0000\uFFFF\uD800'));
  });

  it('gives the same answer to a query however many other queries came before', () => {
    const index = new ToolIndex(CATALOGUE);
    const first = index.search('create issue', { limit: 5 });
    index.search('read file contents', { limit: 5, filter: (n) => n.includes('file') });
    index.search('postgres query sql database table', { limit: 50 });
    assert.deepEqual(index.search('create issue', { limit: 5 }), first);
  });

  it('syncs incrementally: adds, removes and re-indexes only changed tools', () => {
    const index = new ToolIndex(CATALOGUE);
    assert.deepEqual(index.sync(CATALOGUE), { added: 0, removed: 0, updated: 0 });
    const copy = CATALOGUE.map((t) => ({ ...t }));
    assert.deepEqual(index.sync(copy), { added: 0, removed: 0, updated: 0 });

    const added = tool('drain_node', 'Evict all pods from a node.', {}, 'k8s');
    const changed = { ...CATALOGUE[5] as ToolDefinition, description: 'Run a read-only query against MySQL.' };
    const next = [...CATALOGUE.filter((t) => t.name !== 'github__list_issues' && t.name !== 'postgres__query'), changed, added];
    assert.deepEqual(index.sync(next), { added: 1, removed: 1, updated: 1 });
    assert.equal(ranked(index, 'evict pods')[0], 'k8s__drain_node');
    assert.ok(!ranked(index, 'list issues').includes('github__list_issues'));
    assert.equal(ranked(index, 'mysql')[0], 'postgres__query');
    assert.equal(index.has('github__list_issues'), false);
  });

  it('stays correct across many removals (compaction)', () => {
    const many = Array.from({ length: 600 }, (_, i) => tool(`tool_${i}`, `Does thing number ${i} with widgets.`));
    const index = new ToolIndex([...many, ...CATALOGUE]);
    index.sync(CATALOGUE);
    assert.equal(index.size, CATALOGUE.length);
    assert.deepEqual(ranked(index, 'widgets'), []);
    assert.equal(ranked(index, 'deployment_id')[0], 'k8s__rollout_status');
    index.sync([...CATALOGUE, ...many.slice(0, 3)]);
    assert.equal(index.search('widgets').total, 3);
  });
});
