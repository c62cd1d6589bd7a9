import assert from 'node:assert/strict';
import { normalizeTools } from '../../../src/mcp/catalogue';

describe('tool normalization', () => {
  it('keeps name, title, description, schema and known annotation hints only', () => {
    const { tools, problems } = normalizeTools(
      [{ name: 'a', title: 'A', description: 'does a', inputSchema: { type: 'object', properties: { x: {} } }, annotations: { readOnlyHint: true, destructiveHint: 'yes', grantsAdmin: true } }],
      100,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(tools, [{ name: 'a', title: 'A', description: 'does a', inputSchema: { type: 'object', properties: { x: {} } }, annotations: { readOnlyHint: true } }]);
  });

  it('repairs invalid input schemas with a reported problem', () => {
    const { tools, problems } = normalizeTools(
      [{ name: 's', inputSchema: { type: 'string' } }, { name: 'm' }, { name: 'arr', inputSchema: [] }, { name: 't', inputSchema: { properties: { q: {} } } }],
      100,
    );
    assert.deepEqual(tools.map((t) => t.inputSchema), [{ type: 'object' }, { type: 'object' }, { type: 'object' }, { properties: { q: {} }, type: 'object' }]);
    assert.equal(problems.length, 4);
    assert.match(problems[0] ?? '', /tool "s": input schema is not an object schema \(type "string"\)/);
  });

  it('skips nameless and repeated tools with a reason', () => {
    const { tools, problems } = normalizeTools([{ description: 'x' }, { name: 'a', inputSchema: { type: 'object' } }, { name: 'a', inputSchema: { type: 'object' } }, 42], 100);
    assert.deepEqual(tools.map((t) => t.name), ['a']);
    assert.deepEqual(problems, ['tool #1 skipped: it has no name', 'tool "a" skipped: the server lists this name more than once', 'tool #4 skipped: it has no name']);
  });

  it('bounds descriptions', () => {
    const { tools } = normalizeTools([{ name: 'a', description: 'x'.repeat(500), inputSchema: { type: 'object' } }], 100);
    assert.match(tools[0]?.description ?? '', /^x{100}\n\[description truncated: 400 of 500 characters omitted\]$/);
  });
});
