import assert from 'node:assert/strict';
import { analyze, splitWords, stem, MAX_QUERY_TERMS } from '../../../src/core/search/tokenize';
import { queryTerms } from '../../../src/core/search/query';
import { DEFAULT_RANKING } from '../../../src/core/search/toolIndex';

describe('tokenize', () => {
  it('splits names on _ - . camelCase and digits, lowercased', () => {
    assert.deepEqual(splitWords('get_fileContents-v2.json'), ['get', 'filecontents', 'file', 'contents', 'v2', 'v', '2', 'json']);
    assert.deepEqual(splitWords('HTTPServer'), ['httpserver', 'http', 'server']);
  });

  it('drops stop words, single letters and bare numbers, and stems', () => {
    assert.deepEqual(analyze('Show me the issues in the top 10 repos'), ['show', 'issu', 'top', 'repo']);
  });

  it('stems plural, -ing and -ed forms alike', () => {
    assert.equal(stem('issues'), stem('issue'));
    assert.equal(stem('creating'), stem('create'));
    assert.equal(stem('queries'), stem('query'));
    assert.equal(stem('branches'), stem('branch'));
    assert.equal(stem('status'), 'status');
  });

  it('handles non-ASCII text', () => {
    assert.deepEqual(analyze('Créer une tâche für München'), ['créer', 'une', 'tâche', 'für', 'münchen']);
    assert.deepEqual(analyze('日本語 🚀'), ['日本語']);
  });

  it('expands developer vocabulary at a lower weight', () => {
    const terms = queryTerms('open a PR', DEFAULT_RANKING);
    assert.deepEqual(terms.find((t) => t.term === 'pull'), { term: 'pull', weight: DEFAULT_RANKING.synonymWeight });
    assert.equal(terms.find((t) => t.term === 'pr')?.weight, 1);
  });

  it('maps request verbs one way to tool verbs, below synonyms', () => {
    const terms = queryTerms('email the report to Dana', DEFAULT_RANKING);
    assert.deepEqual(terms.find((t) => t.term === 'send'), { term: 'send', weight: DEFAULT_RANKING.verbWeight });
    assert.ok(DEFAULT_RANKING.verbWeight < DEFAULT_RANKING.synonymWeight);
    assert.ok(!queryTerms('list files', DEFAULT_RANKING).some((t) => t.term === 'show'));
    assert.ok(queryTerms('look up a user', DEFAULT_RANKING).some((t) => t.term === 'search'));
    assert.ok(!queryTerms('email the report', { ...DEFAULT_RANKING, verbs: [] }).some((t) => t.term === 'send'));
  });

  it('bounds the number of query terms', () => {
    const long = Array.from({ length: 5_000 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`).join(' ');
    assert.ok(queryTerms(long, DEFAULT_RANKING).length <= MAX_QUERY_TERMS);
  });
});
