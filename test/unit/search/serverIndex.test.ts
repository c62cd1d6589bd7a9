import assert from 'node:assert/strict';
import { SEARCH_BUILTINS } from '../../../src/core/search/builtins';
import { renderServerIndex, topicWords } from '../../../src/core/search/serverIndex';
import { CATALOGUE, tool } from './fixtures';

describe('server index', () => {
  it('lists each server with a count and its topics', () => {
    const text = renderServerIndex([
      { server: 'github', tools: CATALOGUE.filter((t) => t.server === 'github') },
      { server: 'empty', tools: [] },
    ]);
    assert.match(text, /search_tools/);
    assert.match(text, /- github \(3 tools\): issue, pull, request/);
    assert.doesNotMatch(text, /empty/);
  });

  it('is empty when nothing is discoverable', () => {
    assert.equal(renderServerIndex([]), '');
  });

  it('never exceeds its size bound and says how much it left out', () => {
    const entries = Array.from({ length: 200 }, (_, i) => ({
      server: `server-${String(i).padStart(3, '0')}-with-a-long-name`,
      tools: [tool(`create_thing_${i}`, 'x', {}, `s${i}`), tool(`list_widgets_${i}`, 'y', {}, `s${i}`)],
    }));
    for (const maxChars of [2000, 500, 300, 50, 1]) {
      const text = renderServerIndex(entries, { maxChars });
      assert.ok(text.length <= maxChars, `${text.length} > ${maxChars}`);
    }
    assert.match(renderServerIndex(entries, { maxChars: 1000 }), /…and \d+ more servers \(\d+ tools\)$/);
  });

  it('drops action verbs and the server name from topics', () => {
    const tools = [tool('github_create_issue', '', {}, 'github'), tool('github_list_issues', '', {}, 'github'), tool('get_branch', '', {}, 'github')];
    assert.deepEqual(topicWords(tools, 5), ['issue', 'branch']);
  });
});

describe('builtin definitions', () => {
  it('are builtins with object schemas', () => {
    assert.deepEqual(SEARCH_BUILTINS.map((t) => t.name), ['search_tools', 'describe_tools']);
    for (const t of SEARCH_BUILTINS) {
      assert.equal(t.server, undefined);
      assert.equal(t.inputSchema['type'], 'object');
    }
  });
});
