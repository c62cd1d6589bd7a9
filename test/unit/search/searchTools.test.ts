import assert from 'node:assert/strict';
import { clampLimit, searchTools } from '../../../src/core/search/searchTools';
import { ToolIndex } from '../../../src/core/search/toolIndex';
import { CATALOGUE, names, tool } from './fixtures';

const many = Array.from({ length: 80 }, (_, i) => tool(`widget_${i}`, `Manage widget ${i}.`));
const index = new ToolIndex([...CATALOGUE, ...many]);
const all = names([...CATALOGUE, ...many]);

describe('search_tools', () => {
  it('defaults the limit to 10 and clamps it to 1–50', () => {
    assert.equal(clampLimit(undefined), 10);
    assert.equal(clampLimit(0), 1);
    assert.equal(clampLimit(-3), 1);
    assert.equal(clampLimit(500), 50);
    const r = (limit?: number) => searchTools(index, all, { query: 'widget', ...(limit === undefined ? {} : { limit }) });
    const len = (x: ReturnType<typeof r>) => (x.ok ? x.value.results.length : -1);
    assert.equal(len(r()), 10);
    assert.equal(len(r(0)), 1);
    assert.equal(len(r(1000)), 50);
  });

  it('rejects a limit that is not an integer, naming `limit`', () => {
    for (const limit of [2.5, '5', null, Number.NaN, Number.POSITIVE_INFINITY]) {
      const r = searchTools(index, all, { query: 'widget', limit });
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.error, /`limit`/);
    }
  });

  it('rejects an empty or blank query and says what to pass', () => {
    for (const query of ['', '   \n\t']) {
      const r = searchTools(index, all, { query });
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.error, /name what the tool should do/);
    }
    const missing = searchTools(index, all, {});
    assert.equal(missing.ok, false);
    assert.match(missing.ok ? '' : missing.error, /`query`/);
  });

  it('returns name and summary, and the total number of matches', () => {
    const r = searchTools(index, all, { query: 'widget', limit: 5 });
    assert.ok(r.ok);
    assert.equal(r.value.total, 80);
    assert.equal(r.value.results.length, 5);
    assert.match(r.value.results[0]?.summary ?? '', /^Manage widget \d+\.$/);
  });

  it('never returns tools outside the searchable set (offered, off, locked off)', () => {
    const offered = 'github__create_issue';
    const off = 'github__list_issues';
    const lockedOff = 'github__create_pull_request';
    const searchable = new Set([...all].filter((n) => ![offered, off, lockedOff].includes(n)));
    const r = searchTools(index, searchable, { query: 'github issue pull request', limit: 50 });
    assert.ok(r.ok);
    const found = r.value.results.map((x) => x.name);
    for (const hidden of [offered, off, lockedOff]) assert.ok(!found.includes(hidden), hidden);
    assert.equal(r.value.total, r.value.results.length);
    const exact = searchTools(index, searchable, { query: offered });
    assert.ok(exact.ok && !exact.value.results.some((x) => x.name === offered));
  });

  it('ranks the loaded tools with the same query and limit into alreadyLoaded, never into results', () => {
    const offered = CATALOGUE.filter((t) => t.name === 'github__create_issue');
    const searchable = new Set([...all].filter((n) => n !== 'github__create_issue'));
    const r = searchTools(index, searchable, { query: 'create issue', limit: 3 }, { loaded: new ToolIndex(offered) });
    assert.ok(r.ok);
    assert.deepEqual(r.value.alreadyLoaded.map((x) => x.name), ['github__create_issue']);
    assert.ok(!r.value.results.some((x) => x.name === 'github__create_issue'));
    assert.notEqual(r.value.alreadyLoaded[0]?.summary, '');
    const limited = searchTools(index, all, { query: 'widget', limit: 2 }, { loaded: new ToolIndex(many) });
    assert.ok(limited.ok);
    assert.deepEqual(limited.value.alreadyLoaded, [], 'a tool both searchable and loaded is only a result');
    const none = searchTools(index, searchable, { query: 'widget', limit: 2 });
    assert.ok(none.ok && none.value.alreadyLoaded.length === 0, 'without a loaded index nothing is named loaded');
  });

  it('beside searchable results, names a loaded match only when its name matches the query as well (the two indexes\' scores do not compare)', () => {
    const loaded = [tool('notes_search', 'Search the notes for a message.'), tool('widget_echo', 'Echo back a message.')];
    const searchable = new Set(names(CATALOGUE));
    const wordOnly = searchTools(index, searchable, { query: 'create issue' }, { loaded: new ToolIndex(loaded) });
    assert.ok(wordOnly.ok && wordOnly.value.results.length > 0);
    assert.deepEqual(wordOnly.value.alreadyLoaded, [], 'no loaded tool is about issues');
    const spelled = searchTools(index, searchable, { query: 'srv__widget_echo' }, { loaded: new ToolIndex(loaded) });
    assert.ok(spelled.ok);
    assert.deepEqual(spelled.value.alreadyLoaded.map((x) => x.name), ['srv__widget_echo'], 'a query spelling a loaded tool\'s name names it');
  });

  it('ranks the tools of servers waiting for sign-in into signInRequired, close to the best of them, never into results', () => {
    const behind = [tool('whoami', 'Tell who the signed-in user is.'), tool('countdown', 'Count down from a number, reporting progress.')].map((t) => ({ ...t, name: `guarded__${t.toolName}`, server: 'guarded' }));
    const r = searchTools(index, all, { query: 'whoami' }, { behindSignIn: new ToolIndex(behind) });
    assert.ok(r.ok);
    assert.deepEqual(r.value.signInRequired.map((x) => [x.name, x.summary]), [['guarded__whoami', 'Tell who the signed-in user is.']]);
    assert.ok(!r.value.results.some((x) => x.name.startsWith('guarded__')));
    const unrelated = searchTools(index, all, { query: 'create issue' }, { behindSignIn: new ToolIndex(behind) });
    assert.ok(unrelated.ok && unrelated.value.signInRequired.length === 0, 'nothing behind sign-in is about issues');
  });

  it('answers very long queries within bounds', () => {
    const r = searchTools(index, all, { query: `${'x'.repeat(100_000)} widget 7`, limit: 3 });
    assert.ok(r.ok);
  });
});
