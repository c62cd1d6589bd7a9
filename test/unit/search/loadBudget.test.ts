import assert from 'node:assert/strict';
import { closeToBest, RELEVANCE_RATIO, splitByLoadBudget } from '../../../src/core/search/loadBudget';

/** Results as [name, tokens], best first. */
const split = (ranked: readonly (readonly [string, number])[], budget: number) => {
  const { loaded, notLoaded } = splitByLoadBudget(ranked, ([, tokens]) => tokens, budget);
  return { loaded: loaded.map(([n]) => n), notLoaded: notLoaded.map(([n]) => n) };
};

describe('search load budget', () => {
  it('loads results in rank order while their definitions fit together', () => {
    assert.deepEqual(split([['a', 1000], ['b', 1500], ['c', 1500], ['d', 500]], 4000), { loaded: ['a', 'b', 'c'], notLoaded: ['d'] });
    assert.deepEqual(split([['a', 1000], ['b', 3000]], 4000), { loaded: ['a', 'b'], notLoaded: [] });
  });

  it('stops at the first result that does not fit, even when a smaller one further down would', () => {
    assert.deepEqual(split([['a', 1000], ['huge', 5000], ['c', 100], ['d', 100]], 4000), { loaded: ['a'], notLoaded: ['huge', 'c', 'd'] });
  });

  it('always loads the best result, however large, so a search by exact name can load any tool', () => {
    assert.deepEqual(split([['huge', 9000], ['b', 10]], 4000), { loaded: ['huge'], notLoaded: ['b'] });
    assert.deepEqual(split([['a', 10], ['b', 10]], 0), { loaded: ['a'], notLoaded: ['b'] });
  });

  it('loads everything with no budget, and nothing when nothing matched', () => {
    assert.deepEqual(split([['a', 9000], ['b', 9000]], Number.POSITIVE_INFINITY), { loaded: ['a', 'b'], notLoaded: [] });
    assert.deepEqual(split([], 4000), { loaded: [], notLoaded: [] });
  });

  it('with a relevance rule, stops at the first result that is not relevant, whatever the budget left', () => {
    const ranked = [['a', 10, 1], ['b', 10, 0.9], ['c', 10, 0.2], ['d', 10, 0.9]] as const;
    const { loaded, notLoaded } = splitByLoadBudget(ranked, ([, tokens]) => tokens, Number.POSITIVE_INFINITY, ([, , score]) => score >= 0.5);
    assert.deepEqual([loaded.map(([n]) => n), notLoaded.map(([n]) => n)], [['a', 'b'], ['c', 'd']]);
    const irrelevant = splitByLoadBudget([['only', 10, 0]] as const, ([, tokens]) => tokens, 0, () => false);
    assert.deepEqual(irrelevant.loaded.map(([n]) => n), ['only'], 'the best result loads however it scores');
  });

  it('a result is close to the best when it scores at least the ratio of it in the same name tier', () => {
    const best = { score: 20, tier: 0 };
    assert.equal(closeToBest({ score: 20 * RELEVANCE_RATIO, tier: 0 }, best), true);
    assert.equal(closeToBest({ score: 20 * RELEVANCE_RATIO - 0.01, tier: 0 }, best), false);
    assert.equal(closeToBest({ score: 30, tier: 0 }, { score: 5, tier: 2 }), false, 'a tool the query names outranks any score');
    assert.equal(closeToBest({ score: 0, tier: 2 }, { score: 0, tier: 2 }), true);
  });
});
