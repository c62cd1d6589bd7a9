import assert from 'node:assert/strict';
import { clearedNote, contextManagementFor, keptAfterCompaction } from '../../../src/core/context';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-12-02T00:00:00Z';
const call = (id: string, name: string, arg: string): StreamEvent => ({ type: 'assistant_message', content: [{ type: 'tool_use', id, name, input: { arg } }], stopReason: 'tool_use', at });
const kept = (id: string, name: string, ref: string): StreamEvent => ({ type: 'tool_result', toolUseId: id, name, content: [{ type: 'text', text: `[Result ${ref} status: truncated]` }], isError: false, kept: { ref, status: 'truncated', shownChars: 10, totalChars: 100 }, at });
const whole = (id: string, name: string): StreamEvent => ({ type: 'tool_result', toolUseId: id, name, content: [{ type: 'text', text: 'short' }], isError: false, at });
const usage = (cleared?: number): StreamEvent => ({ type: 'usage', model: 'claude-sonnet-5-5', inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, ...(cleared !== undefined ? { cleared: { toolUses: cleared, inputTokens: 5000 } } : {}), at });

describe('context management', () => {
  it('asks for clearing and compaction on a model with both, at the documented figures, and for nothing when off', () => {
    const sonnet = fallbackCapabilities('claude-sonnet-5-5');
    assert.deepEqual(contextManagementFor(sonnet, 'auto'), {
      clearing: { atTokens: 100_000, keepToolUses: 4, clearAtLeast: 30_000, keepResultsOf: ['search_tools'] },
      compaction: { atTokens: 150_000 },
    });
    assert.deepEqual(contextManagementFor(sonnet, 'off'), { clearing: undefined, compaction: undefined });
  });

  it('asks for one edit alone at the threshold it has beside the other', () => {
    const sonnet = fallbackCapabilities('claude-sonnet-5-5');
    const both = contextManagementFor(sonnet, 'auto');
    assert.deepEqual(contextManagementFor(sonnet, 'clearingOnly'), { clearing: both.clearing, compaction: undefined });
    assert.deepEqual(contextManagementFor(sonnet, 'compactionOnly'), { clearing: undefined, compaction: both.compaction });
    // A model without compaction clears at the same figure alone as under auto.
    const haiku = fallbackCapabilities('claude-haiku-4-5');
    assert.deepEqual(contextManagementFor(haiku, 'clearingOnly'), contextManagementFor(haiku, 'auto'));
    assert.deepEqual(contextManagementFor(haiku, 'compactionOnly'), { clearing: undefined, compaction: undefined });
  });

  it('leaves compaction out where a boundary could not give tools back, or the model has none', () => {
    // Sonnet 5 compacts but takes no system messages: the tools found would vanish at the boundary.
    assert.equal(contextManagementFor(fallbackCapabilities('claude-sonnet-5'), 'auto').compaction, undefined);
    assert.equal(contextManagementFor(fallbackCapabilities('claude-haiku-4-5'), 'auto').compaction, undefined);
    assert.notEqual(contextManagementFor(fallbackCapabilities('claude-haiku-4-5'), 'auto').clearing, undefined);
    assert.deepEqual(contextManagementFor(fallbackCapabilities('some-gateway-model'), 'auto'), { clearing: undefined, compaction: undefined });
  });

  it('after a clearing, names the kept results that may be gone (not the latest ones) and says read_result reads them, once', () => {
    const events: StreamEvent[] = [call('a', 'docs__fetch', '1'), kept('a', 'docs__fetch', 'r1'), call('b', 'docs__fetch', '2'), whole('b', 'docs__fetch'), call('c', 'docs__fetch', '3'), kept('c', 'docs__fetch', 'r2'), usage(2)];
    const [note] = clearedNote(events, 1, at);
    assert.equal(note?.type === 'wire_change' ? note.text : '', 'To keep this conversation within the context window, 2 older tool results were cleared from what you read. Quiver kept these whole; read them again with read_result if you need them: r1 (docs__fetch {"arg":"1"}).');
    assert.deepEqual(clearedNote([...events, ...(note ? [note] : []), usage(2)], 1, at), [], 'the next clearing names nothing new, so says nothing');
    assert.deepEqual(clearedNote(events.slice(0, -1), 1, at), [], 'no clearing, no note');
  });

  it('after a compaction boundary, lists the results kept before it, once', () => {
    const boundary: StreamEvent = { type: 'assistant_message', content: [{ type: 'compaction', summary: 'so far', wire: { type: 'compaction', content: 'so far' } }, { type: 'text', text: 'go on' }], stopReason: 'end_turn', at };
    const events: StreamEvent[] = [call('a', 'docs__fetch', '1'), kept('a', 'docs__fetch', 'r1'), boundary];
    const [note] = keptAfterCompaction(events, at);
    assert.equal(note?.type === 'wire_change' ? note.text : '', 'Tool results from before the summary that Quiver kept whole; read them with read_result if you need them: r1 (docs__fetch {"arg":"1"}).');
    assert.deepEqual(keptAfterCompaction([...events, ...(note ? [note] : [])], at), []);
    const failed: StreamEvent = { ...boundary, content: [{ type: 'compaction', summary: null, wire: { type: 'compaction', content: null } }] };
    assert.deepEqual(keptAfterCompaction([call('a', 'docs__fetch', '1'), kept('a', 'docs__fetch', 'r1'), failed], at), [], 'a failed compaction is no boundary');
  });
});
