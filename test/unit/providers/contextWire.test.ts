import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { contextManagementFor, NO_CONTEXT_MANAGEMENT } from '../../../src/core/context';
import type { ChatMessage, ModelRequest } from '../../../src/core/models/model';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import { responseFromWire } from '../../../src/providers/anthropic/fromWire';
import { requestToWire } from '../../../src/providers/anthropic/toWire';

const sonnet = fallbackCapabilities('claude-sonnet-5-5');
const wireBlock = { type: 'compaction', content: 'the summary', encrypted_content: 'enc', signature: 'sig', tool_changes: [{ type: 'tool_addition', tool: { type: 'tool_reference', name: 'gh__a' } }] };
const messages: ChatMessage[] = [
  { role: 'user', content: [{ type: 'text', text: 'hi' }] },
  { role: 'assistant', content: [{ type: 'compaction', summary: 'the summary', toolChanges: { added: ['gh__a'], removed: [] }, wire: wireBlock }, { type: 'text', text: 'go on' }] },
  { role: 'user', content: [{ type: 'text', text: 'more' }] },
];
const request = (over: Partial<ModelRequest>): ModelRequest => ({
  model: 'claude-sonnet-5-5', capabilities: sonnet, system: 'sys', maxTokens: 10, messages, upFront: [], deferred: [], discoveries: [],
  thinking: 'adaptive', effort: undefined, previousMessageId: undefined, contextManagement: NO_CONTEXT_MANAGEMENT, cacheTtl: '5m', ...over,
});

describe('context management on the wire (Anthropic)', () => {
  it('asks for clearing then compaction with their betas, and sends a compaction block back exactly as returned', () => {
    const body = requestToWire(request({ contextManagement: contextManagementFor(sonnet, 'auto') }));
    assert.deepEqual(body.context_management, {
      edits: [
        { type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 100_000 }, keep: { type: 'tool_uses', value: 4 }, clear_at_least: { type: 'input_tokens', value: 30_000 }, exclude_tools: ['search_tools'] },
        { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150_000 } },
      ],
    });
    assert.ok(body.betas?.includes('context-management-2025-06-27') && body.betas.includes('compact-2026-01-12'));
    assert.deepEqual(body.messages[1]?.content, [wireBlock, { type: 'text', text: 'go on' }]);
  });

  it('keeps the compaction beta while a block is sent back, with management off', () => {
    const body = requestToWire(request({}));
    assert.equal(body.context_management, undefined);
    assert.deepEqual(body.betas?.filter((b) => b.startsWith('compact') || b.startsWith('context')), ['compact-2026-01-12']);
  });

  it('reads a compaction block, its tool changes, what clearing saved and the compaction step\'s usage', () => {
    const message = {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-5-5', stop_reason: 'end_turn', stop_sequence: null,
      content: [{ ...wireBlock, tool_changes: [...wireBlock.tool_changes, { type: 'tool_removal', tool: { type: 'tool_reference', name: 'fs__read' } }] }, { type: 'text', text: 'go on', citations: null }],
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 0, iterations: [{ type: 'compaction', input_tokens: 160_000, output_tokens: 900, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, cache_creation: null }] },
      context_management: { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 42_000 }] },
    } as unknown as Anthropic.Beta.Messages.BetaMessage;
    const response = responseFromWire(message);
    const block = response.content[0];
    assert.equal(block?.type, 'compaction');
    assert.deepEqual(block?.type === 'compaction' ? block.toolChanges : undefined, { added: ['gh__a'], removed: ['fs__read'] });
    assert.deepEqual(response.cleared, { toolUses: 3, inputTokens: 42_000 });
    assert.deepEqual(response.compacted, { inputTokens: 160_000, outputTokens: 900 });
  });
});
