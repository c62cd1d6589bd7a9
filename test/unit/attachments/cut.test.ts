import assert from 'node:assert/strict';
import { fileBlock, problemsBlock, selectionBlock, type Problem } from '../../../src/core/attachments/blocks';
import { cutText, headOf, lastLineOf } from '../../../src/core/text/textCut';

describe('cutting long attachments', () => {
  it('keeps the head, never splitting a surrogate pair, and says how much was kept', () => {
    assert.deepEqual(cutText('short', 10), { text: 'short', cut: null });
    assert.deepEqual(cutText('abcdef', 4), { text: 'abcd', cut: { keptChars: 4, totalChars: 6 } });
    assert.equal(headOf('ab😀cd', 3), 'ab');
    assert.equal(lastLineOf('a\nb\nc'), 3);
  });

  it('a file that fits is sent whole in a fence, with its path, language and line count', () => {
    const { text, range } = fileBlock('src/a.ts', 'typescript', 'const a = 1;\nconst b = 2;\n');
    assert.equal(text, 'File src/a.ts (typescript, 2 lines):\n```typescript\nconst a = 1;\nconst b = 2;\n```');
    assert.deepEqual(range, { start: 1, end: 2 });
  });

  it('a long file is cut with a marker that says what was left out, and its range is the lines kept', () => {
    const content = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const { text, range } = fileBlock('big.txt', 'plaintext', content, 50);
    assert.match(text, /^File big\.txt \(plaintext, 100 lines\):\n```plaintext\nline 1\n/);
    assert.match(text, new RegExp(`\\[TRUNCATED: big\\.txt is ${content.length} characters \\(100 lines\\); only the first 50 \\(lines 1-8\\) are shown and the remaining ${content.length - 50} were cut\\.`));
    assert.deepEqual(range, { start: 1, end: 8 });
    assert.ok(!text.includes('line 9'));
  });

  it('a fence is longer than any backtick run inside, so the content cannot close it', () => {
    const text = selectionBlock('README.md', 'markdown', { start: 3, end: 5 }, '```js\nx\n```');
    assert.equal(text, 'Selection from README.md, lines 3-5 (markdown):\n````markdown\n```js\nx\n```\n````');
  });

  it('a one-line selection names its line', () => {
    assert.match(selectionBlock('a.py', 'python', { start: 7, end: 7 }, 'pass'), /^Selection from a\.py, line 7 \(python\):/);
  });

  const problem = (path: string, line: number, severity: Problem['severity'], message: string): Problem => ({ path, line, column: 2, severity, message, source: 'ts', code: '2322' });

  it('problems are listed errors first with a tally, and a long list is cut with a marker', () => {
    const problems = [problem('b.ts', 3, 'warning', 'unused'), problem('a.ts', 9, 'error', 'bad\ntype')];
    assert.equal(problemsBlock('a.ts', problems), 'Problems in a.ts (1 error, 1 warning):\na.ts:9:2 error (ts 2322): bad type\nb.ts:3:2 warning (ts 2322): unused');
    assert.equal(problemsBlock(null, []), 'Problems in the workspace: none reported.');
    const many = Array.from({ length: 500 }, (_, i) => problem('x.ts', i + 1, 'error', 'broken'));
    const cut = problemsBlock(null, many, 1000);
    assert.match(cut, /^Problems in the workspace \(500 errors\):\n/);
    assert.match(cut, /\[TRUNCATED: the list of 500 problems was \d+ characters; only the first 1000 are shown/);
  });
});
