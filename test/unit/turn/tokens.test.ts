import assert from 'node:assert/strict';
import { CHARS_PER_TOKEN, estimateToolTokens, estimateToolsTokens, wireJsonOf } from '../../../src/core/tokens';
import type { ToolDefinition } from '../../../src/core/tools';

const tool: ToolDefinition = { name: 'fs__read', server: 'fs', toolName: 'read', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };

describe('token estimate', () => {
  it('is the wire JSON length over CHARS_PER_TOKEN, rounded up', () => {
    assert.equal(wireJsonOf(tool), '{"name":"fs__read","description":"Read a file.","input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}');
    assert.equal(estimateToolTokens(tool), Math.ceil(wireJsonOf(tool).length / CHARS_PER_TOKEN));
    assert.equal(estimateToolsTokens([tool, tool]), 2 * estimateToolTokens(tool));
    assert.equal(estimateToolsTokens([]), 0);
  });
});
