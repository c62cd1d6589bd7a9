import assert from 'node:assert/strict';
import { HistoryFeed, historyFromStream } from '../../../src/core/chat';
import { applyItemsPatch, type HistoryItem, type ItemsPatch } from '../../../src/core/chat/items';
import type { StreamEvent } from '../../../src/core/stream/events';
import { variedStream } from './variedStream';

const at = '2026-01-01T00:00:00.000Z';
const start: StreamEvent = { type: 'turn_start', at };
const user = (text: string): StreamEvent => ({ type: 'user_message', text, at });
const call = (id: string, text?: string): StreamEvent => ({
  type: 'assistant_message',
  content: [...(text === undefined ? [] : [{ type: 'text' as const, text }]), { type: 'tool_use', id, name: 'fs__read', input: {} }],
  stopReason: 'tool_use',
  at,
});
const result = (toolUseId: string): StreamEvent => ({ type: 'tool_result', toolUseId, name: 'fs__read', content: [{ type: 'text', text: 'data' }], isError: false, at });
const usage: StreamEvent = { type: 'usage', model: 'm', inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, at };
const end = (reason: 'done' | 'error' = 'done'): StreamEvent => ({ type: 'turn_end', reason, ...(reason === 'error' ? { cause: 'the API refused it (400)' } : {}), at });

const ids = (items: readonly HistoryItem[]): string[] => items.map((i) => i.id);

/** A feed over `events`, and a function that appends events and returns the patch they make. */
function feedOf(events: StreamEvent[], turnRunning = true): { feed: HistoryFeed; next: (...more: StreamEvent[]) => ItemsPatch } {
  const feed = new HistoryFeed(events, turnRunning);
  return { feed, next: (...more) => feed.update(events.concat(more).slice(), turnRunning).patch };
}

describe('HistoryFeed', () => {
  for (const rewrites of [false, true]) {
    it(`folding a varied stream one event at a time gives, at every step, what folding it whole gives${rewrites ? ', restarts, failed, dropped and undone messages included' : ''}`, () => {
      for (const seed of [1, 2, 3]) {
        const events = variedStream(400, { rewrites, seed });
        const kinds = new Set(events.map((e) => (e.type === 'turn_end' ? `turn_end:${e.reason}` : e.type)));
        if (rewrites) for (const kind of ['restart', 'message_dropped', 'changes_undone', 'turn_end:error']) assert.ok(kinds.has(kind), `the stream of seed ${seed} has a ${kind}`);
        const feed = new HistoryFeed([], true);
        let mirror: HistoryItem[] = [];
        for (let k = 1; k <= events.length; k++) {
          const prefix = events.slice(0, k);
          // A turn the window closed on shows its running calls cancelled; try both now and then.
          const turnRunning = k % 5 !== 0;
          const before = mirror;
          const { patch, liveUsage } = feed.update(prefix, turnRunning);
          mirror = applyItemsPatch(mirror, patch);
          const whole = historyFromStream(prefix, turnRunning);
          assert.deepEqual(mirror, whole.items, `seed ${seed}, after event ${k - 1} (${events[k - 1]?.type})`);
          assert.deepEqual(liveUsage, whole.liveUsage);
          assert.equal(new Set(ids(mirror)).size, mirror.length, 'every item has its own id');
          for (const { index, item } of patch.changed) assert.notDeepEqual(item, before[index], `seed ${seed}, event ${k - 1}: a changed item differs`);
          if (!rewrites) assert.equal(patch.keep, before.length, 'an event that does not rewrite the past withdraws nothing');
        }
      }
    });
  }

  it('a common event patches only the items it adds or changes', () => {
    const events = [start, user('read two files'), usage, call('t1', 'Reading.')];
    const { feed, next } = feedOf(events);
    assert.deepEqual(ids(feed.items), ['e1', 'e3.0', 't1']);
    assert.deepEqual(next(usage), { keep: 3, changed: [], tail: [] });
    events.push(usage);
    const done = next(result('t1'));
    assert.deepEqual(done.changed.map((c) => [c.index, c.item.id, c.item.kind === 'tool_call' && c.item.outcome.status]), [[2, 't1', 'done']]);
    assert.deepEqual(done.tail, []);
    events.push(result('t1'));
    const second = next(call('t2'));
    assert.deepEqual([second.keep, second.changed, ids(second.tail)], [3, [], ['t2']]);
    events.push(call('t2'));
    const ended = next(end());
    assert.deepEqual(ended.changed.map((c) => c.item.kind === 'tool_call' && [c.item.id, c.item.outcome.status]), [['t2', 'cancelled']], 'a call still running when the turn ends never got a result');
    assert.deepEqual(ended.tail.map((i) => i.kind), ['turn_summary']);
  });

  it('a turn the window closed on shows its running call cancelled, and running again once the turn is live', () => {
    const events = [start, user('q'), call('t1')];
    const feed = new HistoryFeed(events, true);
    const closed = feed.update(events, false);
    assert.deepEqual(closed.patch.changed.map((c) => c.item.kind === 'tool_call' && c.item.outcome.status), ['cancelled']);
    assert.equal(closed.liveUsage, null);
    assert.deepEqual(feed.update(events, false).patch, { keep: 2, changed: [], tail: [] }, 'told once');
    assert.deepEqual(feed.update(events, true).patch.changed.map((c) => c.item.kind === 'tool_call' && c.item.outcome.status), ['running']);
  });

  it('an event that rewrites the past is folded anew, and what it did not change keeps its identity', () => {
    const events = [start, user('one'), call('t1', 'Reading.'), result('t1'), end(), start, user('two'), end('error')];
    const { feed } = feedOf(events);
    const before = feed.items;
    assert.deepEqual(before.map((i) => (i.kind === 'user' ? i.status : i.kind)), ['sent', 'assistant', 'tool_call', 'turn_summary', 'failed', 'turn_summary']);
    const dropped = feed.update([...events, { type: 'message_dropped', index: 6, at }], false).patch;
    assert.deepEqual([dropped.keep, dropped.changed, dropped.tail], [4, [], []], 'the dropped message and its refusal go; nothing else is sent');
    const after = applyItemsPatch(before, dropped);
    before.slice(0, 4).forEach((item, i) => assert.equal(after[i], item));
  });

  it('a restart withdraws the reply it replaces and keeps the rest as it was', () => {
    const events = [start, user('q'), call('t1', 'First.'), result('t1'), { type: 'assistant_message', content: [{ type: 'text', text: 'bad' }], stopReason: 'end_turn', at } as StreamEvent, end()];
    const { feed, next } = feedOf(events);
    const before = feed.items;
    const restarted = next({ type: 'restart', at });
    assert.deepEqual([restarted.keep, restarted.changed, restarted.tail], [3, [], []]);
    assert.deepEqual(ids(applyItemsPatch(before, restarted)), ['e1', 'e2.0', 't1']);
  });

  it('the live items of a streamed reply give way to the recorded ones', () => {
    const events = [start, user('q')];
    const { feed, next } = feedOf(events);
    const live: HistoryItem[] = [...feed.items, { kind: 'assistant', id: 'live-1-0.1', markdown: 'Reading.' }, { kind: 'tool_call', id: 't1', name: 'fs__read', input: {}, outcome: { status: 'running' } }];
    const recorded = applyItemsPatch(live, next(call('t1', 'Reading.')));
    assert.deepEqual(ids(recorded), ['e1', 'e2.0', 't1']);
    assert.equal(recorded[0], live[0]);
  });
});
