import assert from 'node:assert/strict';
import { boundDescription, resultCutMarker } from '../../../src/mcp/common';

describe('truncation', () => {
  it('leaves short text alone', () => {
    assert.equal(boundDescription('short', 10), 'short');
  });

  it('bounds a 1 MB description and says how much was omitted', () => {
    const text = 'x'.repeat(1_048_576);
    const bounded = boundDescription(text, 8000);
    assert.ok(bounded.startsWith('x'.repeat(8000)));
    assert.ok(bounded.endsWith(`[description truncated: ${1_048_576 - 8000} of 1048576 characters omitted]`));
    assert.ok(bounded.length < 8100);
  });

  it('never splits a surrogate pair in a description', () => {
    assert.ok(boundDescription('ab😀cd', 3).startsWith('ab\n'));
  });

  it('the result marker says that, where and how much was cut', () => {
    const marker = resultCutMarker(100, 250);
    assert.match(marker, /^\[TRUNCATED/);
    assert.match(marker, /was 250 characters/);
    assert.match(marker, /first 100 are shown/);
    assert.match(marker, /remaining 150 were cut/);
  });
});
