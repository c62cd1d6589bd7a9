import assert from 'node:assert/strict';
import { suggest } from '../../../webview/completion';

const tools = [
  { name: 'fs__read_file', detail: 'on' },
  { name: 'fs__write_file', detail: 'discoverable' },
  { name: 'gh__read_issue', detail: 'discoverable' },
];
const labels = (text: string, caret = text.length): string[] => suggest(text, caret, tools).map((s) => s.label);

describe('composer completion', () => {
  it('offers the commands while the first word is typed', () => {
    assert.deepEqual(labels('/'), ['/tools', '/use NAME message', '/set KEY=VALUE']);
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
    const [s] = suggest('/use gh  explain this', 7, tools);
    assert.deepEqual(s, { label: 'gh__read_issue', detail: 'discoverable', replacement: '/use gh__read_issue explain this', caret: 20 });
    const [c] = suggest('/us', 3, tools);
    assert.equal(c?.replacement, '/use ');
    assert.equal(c?.caret, 5);
  });
});
