import assert from 'node:assert/strict';
import { confidentMatches, PRELOAD_MARGIN, PRELOAD_MIN_SCORE } from '../../../src/core/search/preload';

/** Ranked matches as [name, score, tier?], best first. */
const ranked = (...hits: readonly (readonly [string, number, number?])[]) => hits.map(([name, score, tier = 0]) => ({ name, score, tier }));
const names = (hits: readonly { readonly name: string }[]) => hits.map((h) => h.name);

describe('preload confidence rule', () => {
  it('loads the best match alone when the next one scores under (1 − margin) of it', () => {
    assert.deepEqual(names(confidentMatches(ranked(['a', 20], ['b', 9], ['c', 8]), 0.5)), ['a']);
    assert.deepEqual(names(confidentMatches(ranked(['a', 20], ['b', 10.5], ['c', 1]), 0.5)), ['a', 'b'], 'b stands with a, and a gap follows both');
  });

  it('loads the top two when they stand together and a gap follows them', () => {
    assert.deepEqual(names(confidentMatches(ranked(['a', 20], ['b', 19], ['c', 5]), 0.5)), ['a', 'b']);
  });

  it('loads nothing when no gap comes within the first two', () => {
    assert.deepEqual(confidentMatches(ranked(['a', 20], ['b', 19], ['c', 18], ['d', 1]), 0.5), []);
  });

  it('the margin is strict: a next match at exactly (1 − margin) of the last loaded is not a gap', () => {
    assert.deepEqual(names(confidentMatches(ranked(['a', 20], ['b', 10], ['c', 10]), 0.5)), []);
    assert.deepEqual(names(confidentMatches(ranked(['a', 20], ['b', 9.99]), 0.5)), ['a']);
  });

  it('a lower name tier behind the best is a gap whatever the scores', () => {
    assert.deepEqual(names(confidentMatches(ranked(['exact', 0, 2], ['b', 30], ['c', 29]))), ['exact']);
  });

  it('a match with nothing behind it is confident, unless it scores under the floor', () => {
    assert.deepEqual(names(confidentMatches(ranked(['a', PRELOAD_MIN_SCORE + 1]))), ['a']);
    assert.deepEqual(confidentMatches(ranked(['weak', PRELOAD_MIN_SCORE - 0.1], ['weaker', 0.1])), [], 'a message that needs no tool brushes a word or two');
    assert.deepEqual(confidentMatches([]), []);
  });

  it('never loads more than two, and uses the chosen margin by default', () => {
    assert.deepEqual(names(confidentMatches(ranked(['a', 100], ['b', 100], ['c', 100], ['d', 1]), 0.5)), []);
    const gap = 1 - PRELOAD_MARGIN;
    assert.deepEqual(names(confidentMatches(ranked(['a', 100], ['b', 100 * gap - 1], ['c', 1]))), ['a']);
    assert.deepEqual(names(confidentMatches(ranked(['a', 100], ['b', 100 * gap + 1], ['c', 1]))), ['a', 'b']);
  });
});
