import assert from 'node:assert/strict';
import { fileQuery, suggest, type CompletionSources } from '../../../webview/completion';

const tools = [
  { name: 'fs__read_file', detail: 'on' },
  { name: 'fs__write_file', detail: 'discoverable' },
  { name: 'gh__read_issue', detail: 'discoverable' },
];
const prompts = [{ name: 'github.review_pr', detail: 'Review a pull request' }];
const resources = [
  { name: 'docs:file:///guide.md', detail: 'Guide' },
  { name: 'docs:file:///my notes.md', detail: 'Notes' },
];
const sources: CompletionSources = { tools, prompts, resources, files: { query: 'rd', paths: ['README.md', 'docs/my notes.md'] } };
const labels = (text: string, caret = text.length): string[] => suggest(text, caret, sources).map((s) => s.label);

describe('composer completion', () => {
  it('offers the commands while the first word is typed', () => {
    assert.deepEqual(labels('/'), ['/tools', '/use NAME message', '/set KEY=VALUE', '/compact', '/github.review_pr']);
    assert.deepEqual(labels('/u'), ['/use NAME message']);
    assert.deepEqual(labels('/x'), []);
    assert.deepEqual(labels('hello /'), []);
  });

  it('offers tool names after /use, prefix matches first, then substring matches', () => {
    assert.deepEqual(labels('/use '), ['fs__read_file', 'fs__write_file', 'gh__read_issue']);
    assert.deepEqual(labels('/use fs'), ['fs__read_file', 'fs__write_file']);
    assert.deepEqual(labels('/use read'), ['fs__read_file', 'gh__read_issue']);
    assert.deepEqual(labels('/use fs__read_file now'), []);
  });

  it('replaces only the token and leaves the caret after it', () => {
    const [s] = suggest('/use gh  explain this', 7, sources);
    assert.deepEqual(s, { label: 'gh__read_issue', detail: 'discoverable', replacement: '/use gh__read_issue explain this', caret: 20 });
    const [c] = suggest('/us', 3, sources);
    assert.equal(c?.replacement, '/use ');
    assert.equal(c?.caret, 5);
    // A command without arguments completes to itself, with no space after: Enter then sends it.
    assert.deepEqual(suggest('/comp', 5, sources)[0], { label: '/compact', detail: 'Summarize the conversation so far to free the context window', replacement: '/compact', caret: 8 });
  });

  it('offers the # mentions at the start of a word, and none once one is typed out', () => {
    assert.deepEqual(labels('explain #'), ['#file:', '#selection', '#problems', '#problems:workspace', '#resource:']);
    assert.deepEqual(labels('#pro'), ['#problems', '#problems:workspace']);
    assert.deepEqual(labels('what does #selection'), []);
    assert.deepEqual(labels('issue#'), []);
    const [file] = suggest('see #fi', 7, sources);
    assert.deepEqual(file, { label: '#file:', detail: 'attach a workspace file', replacement: 'see #file:', caret: 10 });
  });

  it('offers the files the host ranked for the #file: query being typed, quoting paths with spaces', () => {
    assert.equal(fileQuery('read #file:rd', 13), 'rd');
    assert.equal(fileQuery('read #file:rd more', 13), 'rd');
    assert.equal(fileQuery('read #file:rdx', 12), null);
    assert.equal(fileQuery('no mention', 10), null);
    const [readme, notes] = suggest('read #file:rd please', 13, sources);
    assert.deepEqual(readme, { label: 'README.md', detail: 'file', replacement: 'read #file:README.md please', caret: 21 });
    assert.equal(notes?.replacement, 'read #file:"docs/my notes.md" please');
    assert.deepEqual(labels('read #file:other'), [], 'an answer to another query is not shown');
  });

  it('offers MCP prompts after / (by server.prompt), and places the caret for their arguments', () => {
    assert.deepEqual(labels('/git'), ['/github.review_pr']);
    assert.deepEqual(labels('/review'), ['/github.review_pr'], 'the start of the prompt\'s own name matches too');
    assert.deepEqual(labels('/hub'), []);
    const [p] = suggest('/github.r', 9, sources);
    assert.deepEqual(p, { label: '/github.review_pr', detail: 'Review a pull request', replacement: '/github.review_pr ', caret: 18 });
  });

  it('offers MCP resources after #resource:, quoting one with spaces', () => {
    assert.deepEqual(labels('see #resource:'), ['docs:file:///guide.md', 'docs:file:///my notes.md']);
    assert.deepEqual(labels('see #resource:guide'), ['docs:file:///guide.md']);
    const [, notes] = suggest('see #resource:', 14, sources);
    assert.equal(notes?.replacement, 'see #resource:"docs:file:///my notes.md" ');
  });
});
