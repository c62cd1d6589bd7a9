import assert from 'node:assert/strict';
import type { ChatSnapshot, HistoryItem, ThinkingItem } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';
import { idleSnapshot } from './snapshots';

type ThinkingModule = typeof import('../../../webview/render/thinking.js');
type TranscriptModule = typeof import('../../../webview/transcript.js');

/** What the webview modules find as globals in the browser; set before they load, removed after. */

const thinking = (text: string, redacted = false, id = 't1'): ThinkingItem => ({ kind: 'thinking', id, text, redacted });
const userItem: HistoryItem = { kind: 'user', id: 'u1', text: 'add 2 and 3', forced: null, attachments: [], status: 'sent' };
const summaryItem: HistoryItem = { kind: 'turn_summary', id: 's1', reason: 'done', message: null, model: 'm', usage: null, changes: null };
const snapshotOf = (items: readonly HistoryItem[], busy: boolean): ChatSnapshot => idleSnapshot({ items, busy });

describe('webview thinking section', () => {
  let browser: BrowserGlobals;
  let render: ThinkingModule;
  let transcriptModule: TranscriptModule;

  before(async () => {
    browser = installBrowserGlobals();
    render = await import('../../../webview/render/thinking.js');
    transcriptModule = await import('../../../webview/transcript.js');
  });
  after(() => browser.remove());

  const summaryOf = (el: Element): Element => {
    const summary = el.querySelector(':scope > summary');
    assert.ok(summary, 'a thinking section has a summary');
    return summary;
  };

  describe('renderThinking', () => {
    it('while streaming: open, says it is thinking, names itself for assistive technology and keeps the live log quiet', () => {
      const el = render.renderThinking(thinking('The user wants **both** numbers.'), { live: true, streaming: true }, null);
      assert.equal(el.tagName, 'DETAILS');
      assert.equal(el.open, true);
      assert.ok(el.classList.contains('live') && el.classList.contains('streaming'));
      const summary = summaryOf(el);
      assert.equal(summary.textContent, 'Thinking…');
      assert.match(summary.getAttribute('aria-label') ?? '', /^Thinking… \(the model’s reasoning, in progress\)$/);
      assert.equal(el.querySelector('.thinking-body')?.getAttribute('aria-live'), 'off');
      assert.equal(el.querySelector('.thinking-body strong')?.textContent, 'both', 'the text is rendered as markdown');
    });

    it('once its turn has ended: collapsed and labelled plainly, unless the user chose to open it', () => {
      const done = render.renderThinking(thinking('Done thinking.'), { live: false, streaming: false }, null);
      assert.equal(done.open, false);
      assert.equal(summaryOf(done).textContent, 'Thinking');
      assert.equal(summaryOf(done).getAttribute('aria-label'), 'Thinking (the model’s reasoning)');
      assert.equal(render.renderThinking(thinking('Done thinking.'), { live: false, streaming: false }, true).open, true);
      assert.equal(render.renderThinking(thinking('Still going.'), { live: true, streaming: true }, false).open, false);
    });

    it('renders model markup in thinking inert, through the sanitizing markdown path', () => {
      const el = render.renderThinking(thinking('<img src=x onerror="alert(1)"> <script>alert(2)</script> [x](javascript:alert(3))'), { live: true, streaming: false }, null);
      assert.equal(el.querySelectorAll('img, script, iframe').length, 0);
      assert.equal(Array.from(el.querySelectorAll('a')).filter((a) => a.hasAttribute('href')).length, 0);
      for (const node of Array.from(el.querySelectorAll('*'))) {
        assert.ok(!Array.from(node.attributes).some((a) => a.name.startsWith('on')), `no event handler on <${node.tagName}>`);
      }
      assert.match(el.textContent ?? '', /<script>alert\(2\)<\/script>/, 'raw HTML shows as text');
    });

    it('says when reasoning was redacted, with or without text beside it', () => {
      const only = render.renderThinking(thinking('', true), { live: false, streaming: false }, null);
      assert.equal(only.querySelector('.thinking-redacted')?.textContent, render.REDACTED_NOTE);
      assert.equal(only.querySelector('.markdown'), null);
      const both = render.renderThinking(thinking('Partly visible.', true), { live: false, streaming: false }, null);
      assert.deepEqual(Array.from(both.querySelectorAll('.thinking-content > *')).map((e) => e.className), ['markdown', 'thinking-redacted']);
    });

    it('updates a section in place, keeping its summary (and the keyboard focus on it) while the text streams', () => {
      const el = render.renderThinking(thinking('Rea'), { live: true, streaming: true }, null);
      const summary = summaryOf(el);
      const again = render.renderThinking(thinking('Reading the file.'), { live: true, streaming: true }, null, el);
      assert.equal(again, el);
      assert.equal(summaryOf(again), summary);
      assert.equal(el.querySelector('.thinking-body')?.textContent?.trim(), 'Reading the file.');
      render.renderThinking(thinking('Reading the file.'), { live: false, streaming: false }, null, el);
      assert.equal(summaryOf(el), summary);
      assert.equal(summary.textContent, 'Thinking');
      assert.equal(el.open, false);
    });
  });

  describe('in the transcript', () => {
    const newTranscript = (): InstanceType<TranscriptModule['Transcript']> =>
      new transcriptModule.Transcript(() => undefined, { retry: () => undefined, edit: () => undefined, drop: () => undefined });
    const sections = (t: InstanceType<TranscriptModule['Transcript']>): HTMLDetailsElement[] => Array.from(t.el.querySelectorAll<HTMLDetailsElement>('details.thinking'));
    const working = (t: InstanceType<TranscriptModule['Transcript']>): boolean => !(t.el.querySelector('.working') as HTMLElement).hidden;

    it('is open while its turn runs (streaming, then as the reply goes on) and collapses when the turn ends', () => {
      const t = newTranscript();
      const thought = thinking('I need the numbers.', false, 'live-1-1.1');
      t.render(snapshotOf([userItem, thought], true));
      const [live] = sections(t);
      assert.ok(live?.open && live.classList.contains('streaming'));
      assert.equal(working(t), false, 'the section itself says the model is thinking');
      const text: HistoryItem = { kind: 'assistant', id: 'live-1-1.2', markdown: 'The sum is 5.' };
      t.render(snapshotOf([userItem, thought, text], true));
      assert.equal(sections(t)[0], live, 'the same element, updated in place');
      assert.ok(live.open && !live.classList.contains('streaming'));
      t.render(snapshotOf([userItem, thought, text, summaryItem], false));
      assert.equal(live.open, false);
      assert.ok(!live.classList.contains('live'));
    });

    it('collapses a turn\'s earlier thinking once the model thinks again, and an earlier turn\'s stays collapsed', () => {
      const t = newTranscript();
      const earlier = thinking('Old turn.', false, 'e2.0');
      const first = thinking('First step.', false, 'e5.0');
      const call: HistoryItem = { kind: 'tool_call', id: 'toolu_1', name: 'fs__read', input: {}, outcome: { status: 'done', output: [] } };
      const second = thinking('Second step.', false, 'live-2-2.1');
      const user2: HistoryItem = { ...userItem, id: 'u2' };
      t.render(snapshotOf([userItem, earlier, summaryItem, user2, first, call, second], true));
      assert.deepEqual(sections(t).map((d) => d.open), [false, false, true]);
    });

    it('keeps the user\'s choice across redraws: a section closed while live stays closed', () => {
      const t = newTranscript();
      const thought = thinking('Hmm', false, 'live-1-1.1');
      t.render(snapshotOf([userItem, thought], true));
      const [el] = sections(t);
      assert.ok(el);
      summaryOf(el).dispatchEvent(new browser.dom.window.MouseEvent('click', { bubbles: true }));
      el.open = false; // jsdom does not toggle on a synthetic click
      t.render(snapshotOf([userItem, { ...thought, text: 'Hmm, more' }], true));
      assert.equal(sections(t)[0], el);
      assert.equal(el.open, false);
      assert.equal(el.dataset['touched'], 'true', 'the preview clamp no longer applies (chat.css)');
    });
  });
});
