import assert from 'node:assert/strict';
import type { ChatMessage, ModelRequest } from '../../../src/core/model';
import type { ToolDefinition } from '../../../src/core/tools';
import { requestToWire } from '../../../src/providers/anthropic/toWire';

const tool = (name: string): ToolDefinition => ({ name, server: name.includes('__') ? name.split('__')[0] : undefined, toolName: name, description: `${name} does things`, inputSchema: { type: 'object' } });
const messages: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'find it' }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 's1', name: 'search_tools', input: { query: 'x' } }] },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: 's1', content: [{ type: 'text', text: '{"results":[]}' }], isError: false }] },
];
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'm', system: 'sys', maxTokens: 10, toolChoice: { type: 'auto' }, messages,
  tools: [tool('search_tools'), tool('gh__b'), tool('gh__a'), tool('gh__c')],
  discoveries: [{ toolUseId: 's1', tools: ['gh__c', 'gh__a'] }],
  ...over,
});

type WireTool = { name: string; defer_loading?: boolean };
const names = (tools: unknown): string[] => (tools as WireTool[]).map((t) => `${t.name}${t.defer_loading === true ? ' (deferred)' : ''}`);
const resultContent = (body: ReturnType<typeof requestToWire>): unknown => {
  const last = body.messages.at(-1);
  const block = Array.isArray(last?.content) ? last.content[0] : undefined;
  assert.ok(block && block.type === 'tool_result');
  assert.deepEqual(block.cache_control, { type: 'ephemeral' }, 'the latest block is the breakpoint');
  return block && block.type === 'tool_result' ? block.content : undefined;
};

describe('Anthropic request rendering of promotions', () => {
  it('toolReference: discovered tools deferred after those up front (by name), referenced after the result text', () => {
    const body = requestToWire(request());
    assert.deepEqual(names(body.tools), ['search_tools', 'gh__b', 'gh__a (deferred)', 'gh__c (deferred)']);
    assert.deepEqual(resultContent(body), [
      { type: 'text', text: '{"results":[]}' },
      { type: 'tool_reference', tool_name: 'gh__c' },
      { type: 'tool_reference', tool_name: 'gh__a' },
    ]);
  });

  it('toolsArray: nothing deferred, nothing referenced', () => {
    const body = requestToWire(request(), 'toolsArray');
    assert.deepEqual(names(body.tools), ['search_tools', 'gh__b', 'gh__a', 'gh__c']);
    assert.deepEqual(resultContent(body), [{ type: 'text', text: '{"results":[]}' }]);
  });

  it('the forced tool is loaded up front and not referenced', () => {
    const body = requestToWire(request({ toolChoice: { type: 'tool', name: 'gh__a' } }));
    assert.deepEqual(names(body.tools), ['search_tools', 'gh__b', 'gh__a', 'gh__c (deferred)']);
    assert.deepEqual(body.tool_choice, { type: 'tool', name: 'gh__a' });
    assert.equal(JSON.stringify(body.messages).includes('"tool_name":"gh__a"'), false);
  });

  it('when every tool would be deferred, none is', () => {
    const body = requestToWire(request({ tools: [tool('gh__a'), tool('gh__c')] }));
    assert.deepEqual(names(body.tools), ['gh__a', 'gh__c']);
    assert.equal(JSON.stringify(body.messages).includes('tool_reference'), false);
  });

  it('the same request renders the same bytes', () => {
    assert.equal(JSON.stringify(requestToWire(request())), JSON.stringify(requestToWire(request())));
  });
});
