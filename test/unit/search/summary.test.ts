import assert from 'node:assert/strict';
import { summarize, truncate } from '../../../src/core/search/summary';

describe('summarize', () => {
  it('takes the first sentence', () => {
    assert.equal(summarize('Create an issue. Requires push access.'), 'Create an issue.');
  });

  it('does not cut at abbreviations or version numbers', () => {
    assert.equal(summarize('Read files, e.g. logs from v1.2 servers. More.'), 'Read files, e.g. logs from v1.2 servers.');
  });

  it('flattens markdown and whitespace and stops at the first paragraph', () => {
    assert.equal(summarize('**Search** the   web\nfor pages\n\nUsage: ...'), 'Search the web for pages');
  });

  it('is bounded and cut at a word boundary', () => {
    const s = summarize('word '.repeat(200), 50);
    assert.ok(s.length <= 50);
    assert.ok(s.endsWith('…'));
    assert.ok(!s.includes('wor…'));
  });

  it('handles an empty description', () => {
    assert.equal(summarize(''), '');
    assert.equal(truncate('abc', 0), '');
  });
});
