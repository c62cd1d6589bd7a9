import assert from 'node:assert/strict';
import { applyOffsetEdits, type OffsetEdit } from '../../../src/core/edits';

const apply = (text: string, edits: OffsetEdit[]): string => {
  const r = applyOffsetEdits(text, edits);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.text;
};

describe('offset edits (a language service\'s TextEdits)', () => {
  it('applies every edit at the offsets of the original text, whatever order they come in', () => {
    const text = 'greet(a); greet(b); greet(c);';
    const edits = [0, 10, 20].map((start) => ({ start, end: start + 5, text: 'welcome' }));
    const expected = 'welcome(a); welcome(b); welcome(c);';
    assert.equal(apply(text, edits), expected);
    assert.equal(apply(text, [...edits].reverse()), expected);
    assert.equal(apply(text, [edits[1]!, edits[2]!, edits[0]!]), expected);
  });

  it('handles insertions, deletions and edits that touch', () => {
    assert.equal(apply('abcdef', [{ start: 0, end: 0, text: '>' }, { start: 6, end: 6, text: '<' }]), '>abcdef<');
    assert.equal(apply('abcdef', [{ start: 1, end: 3, text: '' }, { start: 3, end: 4, text: 'X' }]), 'aXef');
    assert.equal(apply('abc', [{ start: 1, end: 1, text: 'X' }, { start: 1, end: 2, text: 'Y' }]), 'aXYc');
  });

  it('keeps the given order of two insertions at the same offset', () => {
    assert.equal(apply('ab', [{ start: 1, end: 1, text: '1' }, { start: 1, end: 1, text: '2' }]), 'a12b');
  });

  it('no edits leave the text as it is', () => {
    assert.equal(apply('same', []), 'same');
  });

  it('refuses overlapping edits, naming both', () => {
    const r = applyOffsetEdits('abcdef', [{ start: 0, end: 3, text: 'x' }, { start: 2, end: 4, text: 'y' }]);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, /\[0, 3\).*\[2, 4\).*overlap/);
  });

  it('refuses an edit outside the text or with its end before its start', () => {
    for (const bad of [{ start: 2, end: 9, text: '' }, { start: -1, end: 0, text: '' }, { start: 3, end: 2, text: '' }]) {
      const r = applyOffsetEdits('abcdef', [bad]);
      assert.equal(r.ok, false, JSON.stringify(bad));
      assert.match(r.ok ? '' : r.message, /outside the text/);
    }
  });
});
