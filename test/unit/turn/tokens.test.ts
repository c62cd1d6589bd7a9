import assert from 'node:assert/strict';
import { CHARS_PER_TOKEN, estimateToolTokens, estimateToolsTokens, wireJsonOf } from '../../../src/core/overhead/tokens';
import type { ToolDefinition } from '../../../src/core/tools/definitions';

const tool: ToolDefinition = { name: 'fs__read', server: 'fs', toolName: 'read', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };

describe('token estimate', () => {
  it('is the wire JSON length over CHARS_PER_TOKEN, rounded up', () => {
    assert.equal(wireJsonOf(tool), '{"name":"fs__read","description":"Read a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}');
    assert.equal(estimateToolTokens(tool), Math.ceil(wireJsonOf(tool).length / CHARS_PER_TOKEN));
    assert.equal(estimateToolsTokens([tool, tool]), 2 * estimateToolTokens(tool));
    assert.equal(estimateToolsTokens([]), 0);
  });

  it('stays right when another tool shares the schema object, or the description changes', () => {
    const schema = { type: 'object', properties: {} };
    const a: ToolDefinition = { name: 'a__x', server: 'a', toolName: 'x', description: 'short', inputSchema: schema };
    const b: ToolDefinition = { ...a, name: 'b__much_longer_name', description: 'a much, much longer description than the first one' };
    const expected = (t: ToolDefinition) => Math.ceil(wireJsonOf(t).length / CHARS_PER_TOKEN);
    assert.equal(estimateToolTokens(a), expected(a));
    assert.equal(estimateToolTokens(b), expected(b));
    assert.equal(estimateToolTokens(a), expected(a));
    const changed = { ...a, description: `${a.description} and now some more words` };
    assert.equal(estimateToolTokens(changed), expected(changed));
  });
});

