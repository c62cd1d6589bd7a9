import assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type SlotModule = typeof import('../../../webview/promptSlot.js');

const request = (callId: string, toolName = 'everything__echo'): ApprovalRequest => ({ callId, toolName, input: { message: 'hi' } });

describe('webview: the prompt slot (approvals)', () => {
  let globals: BrowserGlobals;
  let slots: SlotModule;
  before(async () => {
    globals = installBrowserGlobals();
    slots = await import('../../../webview/promptSlot.js');
  });
  after(() => globals.remove());

  const setup = (opts: { typing?: boolean; chatFocused?: boolean } = {}): { slot: InstanceType<SlotModule['PromptSlot']>; answers: string[]; focusLeft: number[]; composer: HTMLTextAreaElement } => {
    document.body.replaceChildren();
    document.hasFocus = (): boolean => opts.chatFocused ?? true;
    const composer = document.createElement('textarea');
    const answers: string[] = [];
    const focusLeft: number[] = [];
    const slot = new slots.PromptSlot({
      answer: (callId, answer) => answers.push(`${callId}:${answer}`),
      typing: () => opts.typing ?? false,
      focusLeft: () => {
        focusLeft.push(1);
        composer.focus();
      },
    });
    document.body.append(slot.el, composer);
    composer.focus();
    globals.scrolledIntoView.length = 0;
    return { slot, answers, focusLeft, composer };
  };
  const buttons = (el: Element): HTMLButtonElement[] => Array.from(el.querySelectorAll('button'));

  it('a new card takes the focus on its first button and is scrolled into view, its answers last', () => {
    const { slot } = setup();
    slot.render([request('c1')]);
    const card = slot.el.querySelector('.approval');
    assert.ok(card);
    assert.equal(document.activeElement?.textContent, 'Allow once');
    assert.equal(slot.waiting, true);
    assert.deepEqual(globals.scrolledIntoView.map((el) => el.className), ['approval', 'approval-actions']);
  });

  it('does not take the focus while the user types a message, nor from elsewhere in the workbench', () => {
    const typing = setup({ typing: true });
    typing.slot.render([request('c1')]);
    assert.equal(document.activeElement, typing.composer);
    const away = setup({ chatFocused: false });
    away.slot.render([request('c1')]);
    assert.equal(document.activeElement, away.composer);
    assert.equal(globals.scrolledIntoView.length, 2, 'it is still scrolled into view');
  });

  it('in a view too short for the whole card, its input starts folded', () => {
    const { slot } = setup();
    const rect = (height: number): DOMRect => ({ height, width: 200, top: 0, bottom: height, left: 0, right: 200, x: 0, y: 0, toJSON: () => ({}) });
    // An own property over Element's, deleted after: only the card measures tall.
    const proto = globals.dom.window.HTMLElement.prototype;
    proto.getBoundingClientRect = function (this: HTMLElement): DOMRect {
      return rect(this.classList.contains('approval') ? 400 : 0);
    };
    Object.defineProperty(globals.dom.window, 'innerHeight', { configurable: true, value: 120 });
    try {
      slot.render([request('c1')]);
      assert.equal(slot.el.querySelector('details')?.open, false);
      Object.defineProperty(globals.dom.window, 'innerHeight', { configurable: true, value: 900 });
      slot.render([request('c1'), request('c2')]);
      assert.equal(slot.el.querySelectorAll('details')[1]?.open, true, 'a card that fits shows its input');
    } finally {
      Reflect.deleteProperty(proto, 'getBoundingClientRect');
      Object.defineProperty(globals.dom.window, 'innerHeight', { configurable: true, value: 768 });
    }
  });

  it('when the chat gets the focus back with nothing focused in it, the focus goes to the waiting card', () => {
    const { slot, composer } = setup({ chatFocused: false });
    slot.render([request('c1')]);
    composer.blur();
    assert.equal(document.activeElement, document.body);
    window.dispatchEvent(new Event('focus'));
    assert.equal(document.activeElement?.textContent, 'Allow once');
    composer.focus();
    window.dispatchEvent(new Event('focus'));
    assert.equal(document.activeElement, composer, 'focus the user put somewhere stays there');
  });

  it('keeps a waiting card (and its focus) when another is added, and hands the focus back when the last goes', () => {
    const { slot, focusLeft, composer } = setup();
    slot.render([request('c1')]);
    const first = slot.el.firstElementChild;
    slot.render([request('c1'), request('c2', 'memory__read_graph')]);
    assert.equal(slot.el.firstElementChild, first, 'the first card is the same element');
    assert.equal(slot.el.children.length, 2);
    slot.render([]);
    assert.equal(slot.waiting, false);
    assert.deepEqual(focusLeft, [1]);
    assert.equal(document.activeElement, composer);
  });

  it('answers a click, but not a keyboard press in the moment the card appears (a key meant for the message box)', async () => {
    const { slot, answers } = setup();
    slot.render([request('c1')]);
    const [allow] = buttons(slot.el);
    assert.ok(allow);
    allow.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    assert.deepEqual(answers, [], 'a keyboard activation right away is ignored');
    allow.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    assert.deepEqual(answers, ['c1:allow_once']);
    slot.render([request('c2')]);
    await new Promise((r) => setTimeout(r, 450));
    const deny = buttons(slot.el).find((b) => b.textContent === 'Deny');
    deny?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    assert.deepEqual(answers, ['c1:allow_once', 'c2:deny'], 'the keyboard answers once the card has been shown a moment');
  });
});
