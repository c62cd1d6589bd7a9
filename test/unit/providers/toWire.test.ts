import assert from 'node:assert/strict';
import { NO_CONTEXT_MANAGEMENT } from '../../../src/core/context';
import type { ChatMessage, ModelRequest } from '../../../src/core/models/model';
import type { ModelCapabilities } from '../../../src/core/models';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import type { WireTool } from '../../../src/core/stream/events';
import { INLINE_TOOLS_BETA, requestToWire, TOOL_CHANGES_BETA } from '../../../src/providers/anthropic/toWire';

const tool = (name: string): WireTool => ({ name, description: `${name} does things`, inputSchema: { type: 'object' } });
const sonnet = fallbackCapabilities('claude-sonnet-5-5');
const messages: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'find it' }] },
  { role: 'assistant', content: [{ type: 'thinking', thinking: 'I should search.', signature: 'sig-1' }, { type: 'tool_use', id: 's1', name: 'search_tools', input: { query: 'x' } }] },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: 's1', content: [{ type: 'text', text: '{"results":[]}' }], isError: false }] },
];
const request = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-sonnet-5-5', capabilities: sonnet, system: 'sys', maxTokens: 10, messages,
  upFront: [tool('search_tools'), tool('gh__b')],
  deferred: [tool('gh__c'), tool('gh__a')],
  discoveries: [{ toolUseId: 's1', tools: ['gh__c', 'gh__a'] }],
  thinking: 'adaptive', effort: undefined, previousMessageId: undefined, contextManagement: NO_CONTEXT_MANAGEMENT, cacheTtl: '5m',
  ...over,
});

type Named = { name: string; defer_loading?: boolean };
const names = (tools: unknown): string[] => (tools as Named[]).map((t) => `${t.name}${t.defer_loading === true ? ' (deferred)' : ''}`);
const lastContent = (body: ReturnType<typeof requestToWire>): unknown[] => {
  const last = body.messages.at(-1);
  return Array.isArray(last?.content) ? last.content : [];
};
const withCaps = (over: Partial<ModelCapabilities>): ModelCapabilities => ({ ...sonnet, ...over });

describe('Anthropic request rendering', () => {
  it('the tools array as first sent, deferred tools after; a loading result holds only its references, the search text beside it', () => {
    const body = requestToWire(request());
    assert.deepEqual(names(body.tools), ['search_tools', 'gh__b', 'gh__c (deferred)', 'gh__a (deferred)']);
    assert.deepEqual(lastContent(body), [
      { type: 'tool_result', tool_use_id: 's1', content: [{ type: 'tool_reference', tool_name: 'gh__c' }, { type: 'tool_reference', tool_name: 'gh__a' }] },
      { type: 'text', text: '{"results":[]}', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('toolsArray (a gateway without deferred tools): what is offered now, no references, the search text in its result, stale thinking dropped rather than refused', () => {
    const body = requestToWire(request(), 'toolsArray');
    assert.deepEqual(names(body.tools), ['search_tools', 'gh__b', 'gh__c', 'gh__a']);
    assert.deepEqual(lastContent(body), [{ type: 'tool_result', tool_use_id: 's1', content: [{ type: 'text', text: '{"results":[]}' }], cache_control: { type: 'ephemeral' } }]);
    assert.deepEqual(body.thinking, { type: 'adaptive', display: 'summarized', block_binding: { prefix_mismatch_behavior: 'drop_block' } });
  });

  it('assistant turns go back exactly as returned, thinking first with its signature; blank text after the last thinking is left out', () => {
    const turn: ChatMessage = { role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: 'sig-2' }, { type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'Done.' }, { type: 'text', text: '  ' }] };
    const body = requestToWire(request({ messages: [...messages, turn, { role: 'user', content: [{ type: 'text', text: 'thanks' }] }] }));
    assert.deepEqual(body.messages[1]?.content, [{ type: 'thinking', thinking: 'I should search.', signature: 'sig-1' }, { type: 'tool_use', id: 's1', name: 'search_tools', input: { query: 'x' } }]);
    assert.deepEqual(body.messages[3]?.content, [{ type: 'thinking', thinking: '', signature: 'sig-2' }, { type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'Done.' }]);
  });

  it('an appended change is a system message with tool_removal and tool_addition, under the tool-changes beta', () => {
    const change: ChatMessage = { role: 'system', text: 'No longer available: gh__b.', added: ['gh__a'], removed: ['gh__b'] };
    const body = requestToWire(request({ messages: [...messages, change] }));
    assert.deepEqual(body.messages.at(-1), {
      role: 'system',
      content: [
        { type: 'text', text: 'No longer available: gh__b.' },
        { type: 'tool_removal', tool: { type: 'tool_reference', name: 'gh__b' } },
        { type: 'tool_addition', tool: { type: 'tool_reference', name: 'gh__a' }, cache_control: { type: 'ephemeral' } },
      ],
    });
    assert.deepEqual(body.betas, [TOOL_CHANGES_BETA]);
  });

  it('without tool changes the text alone goes, saying an added tool waits for a new chat; without system messages it joins the user message', () => {
    const change: ChatMessage = { role: 'system', text: 'Now available: gh__a.', added: ['gh__a'], removed: [] };
    const noChanges = requestToWire(request({ capabilities: withCaps({ toolChanges: false }), messages: [...messages, change] }));
    const system = noChanges.messages.at(-1);
    assert.equal(system?.role, 'system');
    assert.match(JSON.stringify(system?.content), /Now available: gh__a\.[\s\S]*offered in a new chat/);
    assert.equal(JSON.stringify(system?.content).includes('tool_addition'), false);
    assert.equal(noChanges.betas, undefined);
    const noSystem = requestToWire(request({ capabilities: withCaps({ toolChanges: false, systemMessages: false }), messages: [...messages, change] }));
    assert.equal(noSystem.messages.at(-1)?.role, 'user');
    assert.match(JSON.stringify(lastContent(noSystem).at(-1)), /Now available: gh__a\./);
  });

  it('nothing sent up front: no tools array ever; each tool is defined in the first addition that offers it, named after that, and what a search found is defined right after its result', () => {
    const added: ChatMessage = { role: 'system', text: 'Now available: search_tools.', added: ['search_tools'], removed: [] };
    const searchTurn: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'find it' }] },
      added,
      { role: 'assistant', content: [{ type: 'tool_use', id: 's1', name: 'search_tools', input: { query: 'x' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 's1', content: [{ type: 'text', text: '{"results":[]}' }], isError: false }] },
    ];
    const again: ChatMessage[] = [
      { role: 'system', text: 'Gone: gh__a.', added: [], removed: ['gh__a'] },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      { role: 'user', content: [{ type: 'text', text: 'and again' }] },
      { role: 'system', text: 'Back: gh__a.', added: ['gh__a'], removed: [] },
    ];
    const inline = request({ upFront: [], deferred: [tool('search_tools'), tool('gh__a')], discoveries: [{ toolUseId: 's1', tools: ['gh__a'] }], messages: [...searchTurn, ...again] });
    const body = requestToWire(inline);
    assert.equal(body.tools, undefined);
    assert.deepEqual(body.betas, [INLINE_TOOLS_BETA]);
    const definition = (name: string) => ({ type: 'tool_definition', definition: { name, description: `${name} does things`, input_schema: { type: 'object' } } });
    assert.deepEqual(body.messages.map((m) => m.role), ['user', 'system', 'assistant', 'user', 'system', 'assistant', 'user', 'system']);
    assert.deepEqual(body.messages[1]?.content, [{ type: 'text', text: 'Now available: search_tools.' }, { type: 'tool_addition', tool: definition('search_tools') }]);
    assert.deepEqual(body.messages[3]?.content, [{ type: 'tool_result', tool_use_id: 's1', content: [{ type: 'text', text: '{"results":[]}' }] }], 'no reference: the search text stays in its result');
    assert.deepEqual(body.messages[4]?.content, [
      { type: 'tool_addition', tool: definition('gh__a') },
      { type: 'text', text: 'Gone: gh__a.' },
      { type: 'tool_removal', tool: { type: 'tool_reference', name: 'gh__a' } },
    ], 'the search result loads first, then the change that follows it');
    assert.deepEqual(lastContent(body), [{ type: 'text', text: 'Back: gh__a.' }, { type: 'tool_addition', tool: { type: 'tool_reference', name: 'gh__a' }, cache_control: { type: 'ephemeral' } }]);
    const earlier = requestToWire({ ...inline, messages: searchTurn });
    assert.deepEqual(earlier.messages.at(-1), { role: 'system', content: [{ type: 'tool_addition', tool: definition('gh__a'), cache_control: { type: 'ephemeral' } }] }, 'a search result with nothing after it: a system message of its own');
  });

  it('nothing sent up front on a model without tool changes: no tools array and no reference, the added tool said to wait for a new chat', () => {
    const change: ChatMessage = { role: 'system', text: 'Now available: gh__a.', added: ['gh__a'], removed: [] };
    const body = requestToWire(request({ capabilities: withCaps({ toolChanges: false }), upFront: [], deferred: [tool('gh__a')], messages: [...messages, change] }));
    assert.equal(body.tools, undefined);
    assert.equal(body.betas, undefined);
    assert.equal(JSON.stringify(body.messages).includes('tool_reference'), false);
    assert.match(JSON.stringify(body.messages.at(-1)?.content), /offered in a new chat/);
  });

  it('an error result carries text only, and no blank text block is ever sent', () => {
    const failed: ChatMessage = { role: 'user', content: [{ type: 'tool_result', toolUseId: 's1', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }, { type: 'text', text: ' ' }], isError: true }, { type: 'text', text: '\n' }] };
    const body = requestToWire(request({ messages: [messages[0] as ChatMessage, messages[1] as ChatMessage, failed], discoveries: [] }));
    const [result, ...rest] = lastContent(body) as { type: string; content?: { type: string }[] }[];
    assert.deepEqual(result?.content?.map((b) => b.type), ['text']);
    assert.deepEqual(rest, []);
  });

  it('thinking: adaptive with the summarized display, or between_tools; none for a model without thinking', () => {
    assert.deepEqual(requestToWire(request()).thinking, { type: 'adaptive', display: 'summarized' });
    assert.deepEqual(requestToWire(request({ thinking: 'between_tools' })).thinking, { type: 'between_tools' });
    const plain = withCaps({ thinking: { supported: false, adaptive: false, betweenTools: false, disabled: true } });
    assert.equal(requestToWire(request({ capabilities: plain })).thinking, undefined);
    assert.deepEqual(requestToWire(request({ effort: 'low' })).output_config, { effort: 'low' });
  });

  it('asks for the cache-miss diagnosis against the previous reply', () => {
    assert.deepEqual(requestToWire(request()).diagnostics, { previous_message_id: null });
    assert.deepEqual(requestToWire(request({ previousMessageId: 'msg_1' })).diagnostics, { previous_message_id: 'msg_1' });
  });

  it('puts quiver.cache.ttl on the stable prefix (the system prompt\'s breakpoint, after the tools); the moving breakpoint stays at 5 minutes', () => {
    const long = requestToWire(request({ cacheTtl: '1h' }));
    assert.deepEqual(long.system, [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    assert.deepEqual((lastContent(long).at(-1) as { cache_control?: unknown }).cache_control, { type: 'ephemeral' });
    assert.ok(!(long.betas ?? []).some((b) => b.startsWith('extended-cache-ttl')), 'the 1-hour TTL needs no beta header');
    assert.deepEqual(requestToWire(request({ cacheTtl: '5m' })).system, [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    assert.ok((long.tools ?? []).every((t) => !('cache_control' in t)), 'no breakpoint in tools, which come before the 1-hour one');
  });

  it('the same request renders the same bytes', () => {
    assert.equal(JSON.stringify(requestToWire(request())), JSON.stringify(requestToWire(request())));
  });
});
