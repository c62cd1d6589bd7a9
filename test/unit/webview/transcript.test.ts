import assert from 'node:assert/strict';
import { applyHostMessage, type ChatSnapshot, type HistoryItem, type ItemsPatch } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';
import { idleSnapshot } from './snapshots';

type TranscriptModule = typeof import('../../../webview/transcript.js');

const user = (n: number): HistoryItem => ({ kind: 'user', id: `e${n}`, text: `question ${n}`, forced: null, attachments: [], status: 'sent' });
const reply = (n: number, markdown = `answer ${n}`): HistoryItem => ({ kind: 'assistant', id: `e${n}.0`, markdown });
const call = (id: string, status: 'running' | 'cancelled'): HistoryItem => ({ kind: 'tool_call', id, name: 'fs__read', input: {}, outcome: { status } });
const patched = (state: ChatSnapshot, items: ItemsPatch, busy = state.busy): ChatSnapshot =>
  applyHostMessage(state, { type: 'historyPatch', items, busy, liveUsage: null, conversation: state.conversation, pendingElicitations: [] });

describe('webview transcript', () => {
  let browser: BrowserGlobals;
  let transcriptModule: TranscriptModule;

  before(async () => {
    browser = installBrowserGlobals();
    transcriptModule = await import('../../../webview/transcript.js');
  });
  after(() => browser.remove());

  const newTranscript = (): InstanceType<TranscriptModule['Transcript']> =>
    new transcriptModule.Transcript(() => undefined, { retry: () => undefined, edit: () => undefined, drop: () => undefined });
  const elements = (t: InstanceType<TranscriptModule['Transcript']>): HTMLElement[] => Array.from(t.el.querySelectorAll<HTMLElement>('.items > *'));

  it('draws only the items a history patch changed or added; every other element stays as it was', () => {
    const t = newTranscript();
    const items = Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? user(n) : reply(n)));
    let state = idleSnapshot({ items: [...items, call('t1', 'running')], busy: true });
    t.render(state);
    const drawn = elements(t);
    state = applyHostMessage(state, { type: 'textDelta', itemId: 'live-1-1.1', text: 'Streaming' });
    t.render(state);
    assert.equal(elements(t).length, 42);
    state = patched(state, { keep: 41, changed: [{ index: 40, item: call('t1', 'cancelled') }, { index: 3, item: reply(3, 'answer **three**') }], tail: [reply(41, 'Streaming')] }, false);
    t.render(state);
    const now = elements(t);
    assert.deepEqual(now.map((el) => el.dataset['id']), [...items.map((i) => i.id), 't1', 'e41.0'], 'the live text gave way to the recorded reply');
    now.slice(0, 40).forEach((el, i) => (i === 3 ? assert.notEqual(el, drawn[i]) : assert.equal(el, drawn[i], `item ${i} was not drawn again`)));
    assert.equal(now[3]?.querySelector('strong')?.textContent, 'three');
    assert.notEqual(now[40], drawn[40]);
    assert.match(now[40]?.textContent ?? '', /cancelled|Did not run/i);
  });

  it('keeps the elements of the items after one that went, in order', () => {
    const t = newTranscript();
    const items = [user(1), reply(2), user(3), reply(4), user(5), reply(6)];
    let state = idleSnapshot({ items });
    t.render(state);
    const drawn = elements(t);
    state = { ...state, items: [items[0], items[1], items[4], items[5], reply(7)] as HistoryItem[] };
    t.render(state);
    const now = elements(t);
    assert.deepEqual(now.map((el) => el.dataset['id']), ['e1', 'e2.0', 'e5', 'e6.0', 'e7.0']);
    assert.deepEqual(now.slice(0, 4), [drawn[0], drawn[1], drawn[4], drawn[5]]);
  });

  it('redraws an item whose object changed under the same id, and empties when the items go', () => {
    const t = newTranscript();
    t.render(idleSnapshot({ items: [user(1), reply(2)] }));
    t.render(idleSnapshot({ items: [user(1), reply(2, 'other')] }));
    assert.equal(elements(t)[1]?.textContent?.trim(), 'other');
    t.render(idleSnapshot({ items: [] }));
    assert.deepEqual(elements(t), []);
  });
});
