import assert from 'node:assert/strict';
import { buildCatalogue, normalizeTools } from '../../../src/mcp/catalogue';

const listed = (meta: unknown): unknown => ({ name: 'query', inputSchema: { type: 'object' }, ...(meta !== undefined ? { _meta: meta } : {}) });

describe('a tool\'s own size hint (_meta "anthropic/maxResultSizeChars")', () => {
  it('reaches the tool\'s definition, and reads back the same from a cached catalogue', () => {
    const first = normalizeTools([listed({ 'anthropic/maxResultSizeChars': 120_000, other: 'kept out' })], 8_000);
    assert.deepEqual(first.problems, []);
    const again = normalizeTools(JSON.parse(JSON.stringify(first.tools)) as unknown[], Number.POSITIVE_INFINITY);
    assert.deepEqual(again.tools, first.tools);
    assert.equal(buildCatalogue([{ name: 'db', tools: again.tools }]).tools[0]?.resultSizeHintChars, 120_000);
  });

  it('is optional, and a value that is not a whole number of characters is ignored and reported', () => {
    assert.equal(buildCatalogue([{ name: 'db', tools: normalizeTools([listed(undefined)], 8_000).tools }]).tools[0]?.resultSizeHintChars, undefined);
    for (const bad of [0, -5, 1.5, '100000', null]) {
      const parsed = normalizeTools([listed({ 'anthropic/maxResultSizeChars': bad })], 8_000);
      assert.equal(parsed.tools[0]?._meta, undefined);
      assert.match(parsed.problems[0] ?? '', /tool "query": _meta\["anthropic\/maxResultSizeChars"\] is not a whole number of characters .*; ignored/);
    }
  });
});
