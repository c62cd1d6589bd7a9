import assert from 'node:assert/strict';
import { INTERRUPTED_RESULT, transcriptOf } from '../../../src/core/stream/transcript';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-11-30T00:00:00.000Z';
const user = (text: string): StreamEvent => ({ type: 'user_message', text, at });
const assistantText = (text: string): StreamEvent => ({ type: 'assistant_message', content: [{ type: 'text', text }], stopReason: 'end_turn', at });
const assistantCall = (id: string): StreamEvent => ({ type: 'assistant_message', content: [{ type: 'tool_use', id, name: 'fs__read', input: {} }], stopReason: 'tool_use', at });
const result = (id: string): StreamEvent => ({ type: 'tool_result', toolUseId: id, name: 'fs__read', content: [{ type: 'text', text: 'ok' }], isError: false, at });

describe('transcript from the stream', () => {
  it('leaves out a message whose turn failed before any reply, so it never rides along with the next', () => {
    const failedTurn: StreamEvent[] = [{ type: 'turn_start', at }, user('refused'), { type: 'turn_end', reason: 'error', message: '401', at }];
    const messages = transcriptOf([user('hi'), assistantText('hello'), ...failedTurn, user('next')]);
    assert.deepEqual(messages.map((m) => (m.role === 'system' ? [] : m.content.map((b) => (b.type === 'text' ? b.text : b.type)))), [['hi'], ['hello'], ['next']]);
    const cancelled = transcriptOf([user('stop me'), { type: 'turn_end', reason: 'cancelled', at }, user('next')]);
    assert.equal(cancelled[0]?.role === 'user' ? cancelled[0].content.length : 0, 2, 'a message the user stopped is kept: the API never refused it');
    const regenerated = transcriptOf([user('hi'), assistantText('hello'), ...failedTurn, { type: 'restart', at }]);
    assert.deepEqual(regenerated.at(-1), { role: 'user', content: [{ type: 'text', text: 'refused' }] }, 'Regenerate right after the failure sends it again');
    const droppedThenRegenerated = transcriptOf([user('hi'), assistantText('hello'), ...failedTurn, { type: 'message_dropped', index: 3, at }, { type: 'restart', at }]);
    assert.equal(JSON.stringify(droppedThenRegenerated).includes('refused'), false, 'a dropped message stays out, Regenerate or not');
  });

  it('pairs tool calls with their results', () => {
    const messages = transcriptOf([user('hi'), assistantCall('t1'), result('t1'), assistantText('done')]);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  });

  it('a tool call without a result (crash mid-cycle) gets an interrupted error result', () => {
    const messages = transcriptOf([user('hi'), assistantCall('t1'), user('again')]);
    const results = messages[2];
    assert.equal(results?.role, 'user');
    assert.deepEqual(results?.content[0], { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: INTERRUPTED_RESULT }], isError: true });
    assert.deepEqual(results?.content[1], { type: 'text', text: 'again' });
  });

  it('a restart withdraws the last reply only', () => {
    const events: StreamEvent[] = [user('hi'), assistantCall('t1'), result('t1'), assistantText('first answer'), { type: 'turn_end', reason: 'done', at }, { type: 'restart', at }];
    const messages = transcriptOf(events);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.equal(JSON.stringify(messages).includes('first answer'), false);
  });

  it('a restart after the user spoke (no reply yet) withdraws nothing', () => {
    const messages = transcriptOf([user('a'), assistantText('b'), user('c'), { type: 'restart', at }]);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
  });

  it('an appended change goes right before the next reply, after a user message, merged with the others waiting', () => {
    const change = (text: string, added: string[] = []): StreamEvent => ({ type: 'wire_change', cause: 'settings', added, removed: [], text, at });
    const roles = (events: StreamEvent[]): string[] => transcriptOf(events).map((m) => m.role);
    assert.deepEqual(roles([user('hi'), change('a'), assistantText('ok')]), ['user', 'system', 'assistant']);
    const cancelled = [user('hi'), assistantCall('t1'), result('t1'), change('a', ['x']), { type: 'turn_end', reason: 'cancelled', at } as StreamEvent, user('again'), change('b'), assistantText('ok')];
    const messages = transcriptOf(cancelled);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user', 'system', 'assistant'], 'never right before a user message');
    assert.deepEqual(messages[3], { role: 'system', text: 'a\n\nb', added: ['x'], removed: [] });
    assert.deepEqual(roles([user('hi'), change('a')]), ['user', 'system'], 'a change waiting at the end follows the user message');
  });
});
