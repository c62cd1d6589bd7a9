import assert from 'node:assert/strict';
import { historyFromStream, itemIdForEvent } from '../../../src/core/chat';
import { conversationTitle } from '../../../src/core/stream/conversation';
import type { AssistantBlock, StreamEvent } from '../../../src/core/stream/events';
import type { HistoryItem } from '../../../src/protocol';

const at = '2025-01-01T00:00:00.000Z';
const start: StreamEvent = { type: 'turn_start', at };
const user = (text: string, forced?: string): StreamEvent => (forced === undefined ? { type: 'user_message', text, at } : { type: 'user_message', text, forced, at });
const say = (...blocks: ({ text: string } | { id: string; name: string; input?: Record<string, unknown> })[]): StreamEvent => ({
  type: 'assistant_message',
  content: blocks.map((b) => ('text' in b ? { type: 'text' as const, text: b.text } : { type: 'tool_use' as const, id: b.id, name: b.name, input: b.input ?? {} })),
  stopReason: 'end_turn',
  at,
});
const result = (toolUseId: string, name: string, text: string, isError = false): StreamEvent => ({ type: 'tool_result', toolUseId, name, content: [{ type: 'text', text }], isError, at });
const searchResult = (toolUseId: string, found: { name: string; status: 'usable' | 'found, unavailable' }[], notLoaded?: string[]): StreamEvent => ({
  type: 'tool_result', toolUseId, name: 'search_tools', content: [{ type: 'text', text: 'results' }], isError: false, found, ...(notLoaded ? { notLoaded } : {}), at,
});
const promote = (...names: string[]): StreamEvent => ({ type: 'config_delta', source: 'promotion', tools: Object.fromEntries(names.map((n) => [n, { enable: 'on' }])), at });
const usage = (input: number, output: number, cacheRead = 0): StreamEvent => ({ type: 'usage', model: 'claude-x', inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: 0, at });
const end = (reason: 'done' | 'cancelled' | 'max_cycles' | 'error' = 'done', message?: string): StreamEvent =>
  message === undefined ? { type: 'turn_end', reason, at } : { type: 'turn_end', reason, message, at };

const brief = (items: readonly HistoryItem[]): string[] =>
  items.map((i) => {
    switch (i.kind) {
      case 'user': return `user:${i.text}${i.forced ? `(${i.forced})` : ''}${i.status === 'failed' ? ':failed' : ''}`;
      case 'assistant': return `assistant:${i.markdown}`;
      case 'thinking': return `thinking:${i.text}${i.redacted ? ':redacted' : ''}`;
      case 'tool_call': return `tool:${i.name}:${i.outcome.status}`;
      case 'search': return `search:${i.outcome.status === 'done' ? i.outcome.found.map((f) => `${f.name}=${f.status}`).join(',') : i.outcome.status}`;
      case 'turn_summary': return `end:${i.reason}`;
      case 'compacted': return `compacted:${i.summary ?? ''}`;
    }
  });

describe('historyFromStream', () => {
  it('a denied, a stopped and a refused call say they did not run; only a call that ran and failed is an error', () => {
    const notRun = (toolUseId: string, reason: 'denied' | 'cancelled' | 'refused'): StreamEvent => ({ type: 'tool_result', toolUseId, name: 'gh__x', content: [{ type: 'text', text: 'why' }], isError: true, notRun: reason, at });
    const h = historyFromStream([start, user('go'), say({ id: 'a', name: 'gh__x' }, { id: 'b', name: 'gh__x' }, { id: 'c', name: 'gh__x' }, { id: 'd', name: 'gh__x' }), notRun('a', 'denied'), notRun('b', 'cancelled'), notRun('c', 'refused'), result('d', 'gh__x', 'boom', true), end()], false);
    assert.deepEqual(brief(h.items), ['user:go', 'tool:gh__x:denied', 'tool:gh__x:cancelled', 'tool:gh__x:refused', 'tool:gh__x:error', 'end:done']);
  });

  it('a call stopped while it was running says so, with what the model was told; an old stream\'s cancelled call still reads as not run', () => {
    const stopped: StreamEvent = { type: 'tool_result', toolUseId: 'a', name: 'fs__copy', content: [{ type: 'text', text: 'The call was stopped by the user while it was running; it may have had effects.' }], isError: true, stopped: true, at };
    const h = historyFromStream([start, user('go'), say({ id: 'a', name: 'fs__copy' }), stopped, end('cancelled')], false);
    assert.deepEqual(h.items[1], { kind: 'tool_call', id: 'a', name: 'fs__copy', input: {}, outcome: { status: 'stopped', output: [{ kind: 'text', text: 'The call was stopped by the user while it was running; it may have had effects.' }] } });
    const old: StreamEvent = { type: 'tool_result', toolUseId: 'a', name: 'fs__copy', content: [{ type: 'text', text: 'The tool call was cancelled by the user.' }], isError: true, notRun: 'cancelled', at };
    assert.deepEqual(brief(historyFromStream([start, user('go'), say({ id: 'a', name: 'fs__copy' }), old, end('cancelled')], false).items), ['user:go', 'tool:fs__copy:cancelled', 'end:cancelled']);
  });

  it('a search that matched only loaded tools lists them as already on, not as nothing found', () => {
    const loaded: StreamEvent = { type: 'tool_result', toolUseId: 's1', name: 'search_tools', content: [{ type: 'text', text: 'results' }], isError: false, found: [], alreadyLoaded: ['fixture__whoami'], at };
    const h = historyFromStream([start, user('who'), say({ id: 's1', name: 'search_tools', input: { query: 'whoami' } }), loaded, end()], false);
    assert.deepEqual(brief(h.items), ['user:who', 'search:fixture__whoami=already on', 'end:done']);
    const mixed = historyFromStream([start, user('who'), say({ id: 's1', name: 'search_tools' }), { ...loaded, found: [{ name: 'a', status: 'usable' }], notLoaded: ['b'] }, promote('a'), end()], false);
    assert.deepEqual(brief(mixed.items), ['user:who', 'search:a=loaded,b=not loaded,fixture__whoami=already on', 'end:done']);
  });

  it('a message whose turn failed before any reply is marked failed; a dropped one disappears with its refusal', () => {
    const events: StreamEvent[] = [start, user('refused'), end('error', '401'), start, user('fine'), say({ text: 'ok' }), end()];
    assert.deepEqual(brief(historyFromStream(events, false).items), ['user:refused:failed', 'end:error', 'user:fine', 'assistant:ok', 'end:done']);
    const dropped: StreamEvent[] = [...events, { type: 'message_dropped', index: 1, at }];
    assert.deepEqual(brief(historyFromStream(dropped, false).items), ['user:fine', 'assistant:ok', 'end:done']);
  });

  it('maps a plain turn with per-turn usage summed over cycles', () => {
    const h = historyFromStream([start, user('hi'), usage(100, 10), say({ text: 'Hello' }), usage(50, 5, 40), end()], false);
    assert.deepEqual(brief(h.items), ['user:hi', 'assistant:Hello', 'end:done']);
    assert.deepEqual(h.items[2], { kind: 'turn_summary', id: itemIdForEvent(5), reason: 'done', message: null, model: 'claude-x', usage: { input: 150, output: 15, cacheRead: 40, cacheWrite: 0 }, changes: null });
    assert.equal(h.liveUsage, null);
  });

  it('shows a forced tool on the user message and drops blank text blocks', () => {
    const h = historyFromStream([start, user('read it', 'fs__read'), say({ text: '  ' }, { id: 't1', name: 'fs__read' }), result('t1', 'fs__read', 'data'), end()], false);
    assert.deepEqual(brief(h.items), ['user:read it(fs__read)', 'tool:fs__read:done', 'end:done']);
  });

  it('fills tool results into their call cards, with errors and images', () => {
    const img: StreamEvent = { type: 'tool_result', toolUseId: 't2', name: 'shot', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], isError: false, at };
    const h = historyFromStream(
      [start, user('go'), say({ text: 'Trying' }, { id: 't1', name: 'fs__read', input: { path: 'x' } }, { id: 't2', name: 'shot' }), result('t1', 'fs__read', 'ENOENT', true), img, end()],
      false,
    );
    assert.deepEqual(h.items[2], { kind: 'tool_call', id: 't1', name: 'fs__read', input: { path: 'x' }, outcome: { status: 'error', output: [{ kind: 'text', text: 'ENOENT' }] } });
    assert.deepEqual(h.items[3], { kind: 'tool_call', id: 't2', name: 'shot', input: {}, outcome: { status: 'done', output: [{ kind: 'image', mimeType: 'image/png', data: 'AAAA' }] } });
  });

  it('makes search_tools a search card and credits promotions recorded after the result', () => {
    const h = historyFromStream(
      [start, user('find'), say({ id: 's1', name: 'search_tools', input: { query: 'git' } }), searchResult('s1', [{ name: 'git__log', status: 'usable' }, { name: 'git__on', status: 'usable' }, { name: 'git__off', status: 'found, unavailable' }]), promote('git__log'), end()],
      false,
    );
    assert.deepEqual(brief(h.items), ['user:find', 'search:git__log=loaded,git__on=already on,git__off=unavailable', 'end:done']);
  });

  it('keeps the matches a search named but did not load, through the promotion that follows', () => {
    const listed = searchResult('s1', [{ name: 'git__log', status: 'usable' }], ['git__blame', 'git__show']);
    const h = historyFromStream([start, user('find'), say({ id: 's1', name: 'search_tools', input: { query: 'git' } }), listed, promote('git__log'), end()], false);
    assert.deepEqual(brief(h.items), ['user:find', 'search:git__log=loaded,git__blame=not loaded,git__show=not loaded', 'end:done']);
    const old = historyFromStream([start, user('find'), say({ id: 's1', name: 'search_tools', input: { query: 'git' } }), searchResult('s1', [{ name: 'git__log', status: 'usable' }]), end()], false);
    assert.deepEqual(brief(old.items), ['user:find', 'search:git__log=already on', 'end:done'], 'a stream from before the budget has no not-loaded rows');
  });

  it('a loaded row carries the estimated tokens of the definition the wire recorded, and says unloaded once the conversation turns the tool off', () => {
    const definition = { name: 'git__log', description: 'Show the commit log.', inputSchema: { type: 'object', properties: { max: { type: 'integer' } } } };
    const wire: StreamEvent = { type: 'wire_tools', placement: 'deferred', tools: [definition], at };
    const found = searchResult('s1', [{ name: 'git__log', status: 'usable' }, { name: 'git__on', status: 'usable' }], ['git__blame']);
    const events = [start, user('find'), say({ id: 's1', name: 'search_tools', input: { query: 'git' } }), promote('git__log'), found, wire, end()];
    const rows = (items: readonly HistoryItem[]) => items.flatMap((i) => (i.kind === 'search' && i.outcome.status === 'done' ? i.outcome.found : []));
    const tokens = Math.ceil(JSON.stringify({ name: definition.name, description: definition.description, input_schema: definition.inputSchema }).length / 3.5);
    assert.deepEqual(rows(historyFromStream(events, false).items), [
      { name: 'git__log', status: 'loaded', tokens },
      { name: 'git__on', status: 'already on', tokens: null },
      { name: 'git__blame', status: 'not loaded', tokens: null },
    ]);
    const unload: StreamEvent = { type: 'config_delta', source: 'user', tools: { git__log: { enable: { availability: 'off' } } }, at };
    assert.deepEqual(rows(historyFromStream([...events, unload], false).items).map((f) => f.status), ['unloaded', 'already on', 'not loaded']);
    const again: StreamEvent = { type: 'config_delta', source: 'user', tools: { git__log: { enable: 'on' } }, at };
    assert.deepEqual(rows(historyFromStream([...events, unload, again], false).items).map((f) => f.status), ['loaded', 'already on', 'not loaded'], 'on again, its search loaded it');
    const serverOff: StreamEvent = { type: 'config_delta', source: 'settings', tools: { 'git__*': { enable: 'off' } }, at };
    assert.deepEqual(rows(historyFromStream([...events, serverOff], false).items).map((f) => f.status), ['loaded', 'already on', 'not loaded'], 'the promotion outranks its server\'s entry');
  });

  it('credits a promotion recorded before its search result', () => {
    const h = historyFromStream([start, user('find'), say({ id: 's1', name: 'search_tools' }), promote('a'), searchResult('s1', [{ name: 'a', status: 'usable' }]), end()], false);
    assert.deepEqual(brief(h.items), ['user:find', 'search:a=loaded', 'end:done']);
  });

  it('credits each of two parallel searches with its own promotions', () => {
    const h = historyFromStream(
      [start, user('find'), say({ id: 's1', name: 'search_tools' }, { id: 's2', name: 'search_tools' }), searchResult('s1', [{ name: 'a', status: 'usable' }]), searchResult('s2', [{ name: 'b', status: 'usable' }]), promote('a'), promote('b'), end()],
      false,
    );
    assert.deepEqual(brief(h.items), ['user:find', 'search:a=loaded', 'search:b=loaded', 'end:done']);
  });

  it('ignores settings and user deltas for promotion and never credits an unavailable result', () => {
    const userDelta: StreamEvent = { type: 'config_delta', source: 'user', tools: { a: { enable: 'on' } }, at };
    const h = historyFromStream([start, user('x'), say({ id: 's1', name: 'search_tools' }), searchResult('s1', [{ name: 'a', status: 'usable' }, { name: 'b', status: 'found, unavailable' }]), userDelta, promote('b'), end()], false);
    assert.deepEqual(brief(h.items), ['user:x', 'search:a=already on,b=unavailable', 'end:done']);
  });

  it('shows a failed search as an error card', () => {
    const h = historyFromStream([start, user('x'), say({ id: 's1', name: 'search_tools', input: { query: '' } }), result('s1', 'search_tools', 'query must not be empty', true), end()], false);
    assert.deepEqual(h.items[1], { kind: 'search', id: 's1', input: { query: '' }, outcome: { status: 'error', output: [{ kind: 'text', text: 'query must not be empty' }] } });
  });

  it('cancels calls without a result when the turn ends, with its reason and message', () => {
    const h = historyFromStream([start, user('x'), say({ id: 't1', name: 'slow' }), end('cancelled')], false);
    assert.deepEqual(brief(h.items), ['user:x', 'tool:slow:cancelled', 'end:cancelled']);
    const e = historyFromStream([start, user('x'), end('error', '401 invalid x-api-key')], false);
    assert.deepEqual(e.items[1], { kind: 'turn_summary', id: 'e2', reason: 'error', message: '401 invalid x-api-key', model: null, usage: null, changes: null });
  });

  it('keeps calls running and reports live usage for a turn that is still running', () => {
    const events = [start, user('x'), usage(10, 2), say({ id: 't1', name: 'slow' })];
    const live = historyFromStream(events, true);
    assert.deepEqual(brief(live.items), ['user:x', 'tool:slow:running']);
    assert.deepEqual(live.liveUsage, { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 });
    const stale = historyFromStream(events, false);
    assert.deepEqual(brief(stale.items), ['user:x', 'tool:slow:cancelled']);
    assert.equal(stale.liveUsage, null);
  });

  it('restart withdraws the latest assistant message, its results and the turn end', () => {
    const h = historyFromStream(
      [start, user('q'), usage(10, 1), say({ text: 'first' }, { id: 't1', name: 'x' }), result('t1', 'x', 'r'), usage(20, 2), say({ text: 'bad answer' }), end(), { type: 'restart', at }, usage(30, 3), say({ text: 'better answer' }), end()],
      false,
    );
    assert.deepEqual(brief(h.items), ['user:q', 'assistant:first', 'tool:x:done', 'assistant:better answer', 'end:done']);
    const summary = h.items[4];
    assert.equal(summary?.kind === 'turn_summary' && summary.usage?.input, 60);
  });

  it('a restart never withdraws the user message or an earlier turn', () => {
    const h = historyFromStream([start, user('one'), say({ text: 'a1' }), end(), start, user('two'), end('error', 'overloaded'), { type: 'restart', at }, say({ text: 'a2' }), end()], false);
    assert.deepEqual(brief(h.items), ['user:one', 'assistant:a1', 'end:done', 'user:two', 'assistant:a2', 'end:done']);
  });

  describe('thinking', () => {
    const thought = (thinking: string): AssistantBlock => ({ type: 'thinking', thinking, signature: 'sig' });
    const redacted: AssistantBlock = { type: 'redacted_thinking', data: 'opaque' };
    const reply = (...content: AssistantBlock[]): StreamEvent => ({ type: 'assistant_message', content, stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn', at });
    const call = (id: string, name: string): AssistantBlock => ({ type: 'tool_use', id, name, input: {} });

    it('shows each reply\'s thinking as a section before what it wrote, in a multi-step turn too', () => {
      const h = historyFromStream(
        [start, user('sum'), reply(thought('I need the file.'), call('t1', 'fs__read')), result('t1', 'fs__read', '2 3'), reply(thought('It says 2 and 3.'), { type: 'text', text: 'The sum is 5.' }), end()],
        false,
      );
      assert.deepEqual(brief(h.items), ['user:sum', 'thinking:I need the file.', 'tool:fs__read:done', 'thinking:It says 2 and 3.', 'assistant:The sum is 5.', 'end:done']);
      assert.deepEqual(h.items.map((i) => i.id), ['e1', 'e2.0', 't1', 'e4.0', 'e4.1', 'e5']);
    });

    it('gathers a run of thinking blocks into one section; redacted thinking says so; thinking with no text shows nothing', () => {
      const h = historyFromStream(
        [start, user('q'), reply(thought('First.'), redacted, thought(''), thought('Second.'), { type: 'text', text: 'A' }, thought('  '), { type: 'text', text: 'B' }, redacted), end()],
        false,
      );
      assert.deepEqual(brief(h.items), ['user:q', 'thinking:First.\n\nSecond.:redacted', 'assistant:A', 'assistant:B', 'thinking::redacted', 'end:done']);
      assert.deepEqual(h.items.map((i) => i.id), ['e1', 'e2.0', 'e2.4', 'e2.6', 'e2.7', 'e3']);
      const omitted = historyFromStream([start, user('q'), reply(thought(''), { type: 'text', text: 'Answer' }), end()], false);
      assert.deepEqual(brief(omitted.items), ['user:q', 'assistant:Answer', 'end:done']);
    });

    it('a restart withdraws the thinking of the reply it replaces', () => {
      const h = historyFromStream([start, user('q'), reply(thought('Hmm.'), { type: 'text', text: 'bad' }), end(), { type: 'restart', at }, reply(thought('Better.'), { type: 'text', text: 'good' }), end()], false);
      assert.deepEqual(brief(h.items), ['user:q', 'thinking:Better.', 'assistant:good', 'end:done']);
    });
  });

  it('gives each call its own id when a reply repeats a tool_use id, so the chat can tell them apart', () => {
    const h = historyFromStream([start, user('q'), say({ id: 'toolu_1', name: 'x' }), end(), start, user('again'), say({ id: 'toolu_1', name: 'x' }, { id: 'toolu_1', name: 'x' })], true);
    assert.deepEqual(h.items.map((i) => i.id), ['e1', 'toolu_1', 'e3', 'e5', 'toolu_1#e6.0', 'toolu_1#e6.1']);
  });

  it('gives stable ids from event positions and tool_use ids', () => {
    const h = historyFromStream([start, user('q'), say({ text: 'a' }, { id: 'toolu_1', name: 'x' }, { text: 'b' })], true);
    assert.deepEqual(h.items.map((i) => i.id), ['e1', 'e2.0', 'toolu_1', 'e2.2']);
  });
});

describe('conversationTitle', () => {
  it('prefers the latest rename, else the first user message on one line, else a default', () => {
    assert.equal(conversationTitle([]), 'New chat');
    assert.equal(conversationTitle([user('  fix\n the   build  '), user('later')]), 'fix the build');
    assert.equal(conversationTitle([user('x'), { type: 'renamed', title: 'Old', at }, { type: 'renamed', title: 'New', at }]), 'New');
    const long = conversationTitle([user('a'.repeat(100))]);
    assert.equal(long.length, 60);
    assert.ok(long.endsWith('…'));
  });
});

describe('a message not sent for want of an API key', () => {
  const at = '2026-12-02T00:00:00.000Z';
  const notSent = (cause: string): StreamEvent[] => [
    { type: 'turn_start', at },
    { type: 'user_message', text: 'hello', at },
    { type: 'turn_end', reason: 'error', message: 'No Anthropic API key is set. Run "Quiver: Set API Key" from the Command Palette.', cause, at },
  ];

  it('says so on the message alone: no Failed line that would outlive the key being set (the key notice carries the how-to)', () => {
    const items = historyFromStream(notSent('no API key'), false).items;
    assert.deepEqual(items.map((i) => [i.kind, i.kind === 'user' ? [i.status, i.cause] : null]), [['user', ['failed', 'no API key']]]);
  });

  it('any other cause keeps its Failed line with what to do', () => {
    const items = historyFromStream(notSent('could not reach http://127.0.0.1:9 (connection refused)'), false).items;
    assert.deepEqual(items.map((i) => i.kind), ['user', 'turn_summary']);
  });
});
