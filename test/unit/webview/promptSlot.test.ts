import assert from 'node:assert/strict';
import type { ApprovalRequest, ElicitationPromptView } from '../../../src/protocol';
import { installBrowserGlobals, type BrowserGlobals } from './browserGlobals';

type SlotModule = typeof import('../../../webview/promptSlot.js');

const request = (callId: string, toolName = 'everything__echo'): ApprovalRequest => ({ callId, toolName, input: { message: 'hi' }, review: null });

const question: ElicitationPromptView = {
  promptId: 'c3#1',
  callId: 'c3',
  toolName: 'crm__add_contact',
  server: 'crm',
  message: 'Who should be added? <b>not markup</b>',
  mode: 'form',
  fields: [
    { key: 'name', label: 'Name', required: true, kind: 'text' },
    { key: 'age', label: 'Age', required: false, kind: 'number', integer: true, default: 30, minimum: 0 },
    { key: 'newsletter', label: 'Newsletter', required: false, kind: 'boolean', default: false },
    { key: 'color', label: 'Color', required: false, kind: 'choice', options: [{ value: 'red', label: 'Red' }, { value: 'green', label: 'Green' }], default: 'green' },
  ],
};

describe('webview: the prompt slot (approvals and server questions)', () => {
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
      reply: (promptId, reply) => answers.push(`${promptId}:${JSON.stringify(reply)}`),
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
    slot.render([request('c1')], []);
    const card = slot.el.querySelector('.approval');
    assert.ok(card);
    assert.equal(document.activeElement?.textContent, 'Allow once');
    assert.equal(slot.waiting, true);
    assert.deepEqual(globals.scrolledIntoView.map((el) => el.className), ['approval', 'approval-actions']);
  });

  it('does not take the focus while the user types a message, nor from elsewhere in the workbench', () => {
    const typing = setup({ typing: true });
    typing.slot.render([request('c1')], []);
    assert.equal(document.activeElement, typing.composer);
    const away = setup({ chatFocused: false });
    away.slot.render([request('c1')], []);
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
      slot.render([request('c1')], []);
      assert.equal(slot.el.querySelector('details')?.open, false);
      Object.defineProperty(globals.dom.window, 'innerHeight', { configurable: true, value: 900 });
      slot.render([request('c1'), request('c2')], []);
      assert.equal(slot.el.querySelectorAll('details')[1]?.open, true, 'a card that fits shows its input');
    } finally {
      Reflect.deleteProperty(proto, 'getBoundingClientRect');
      Object.defineProperty(globals.dom.window, 'innerHeight', { configurable: true, value: 768 });
    }
  });

  it('when the chat gets the focus back with nothing focused in it, the focus goes to the waiting card', () => {
    const { slot, composer } = setup({ chatFocused: false });
    slot.render([request('c1')], []);
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
    slot.render([request('c1')], []);
    const first = slot.el.firstElementChild;
    slot.render([request('c1'), request('c2', 'memory__read_graph')], []);
    assert.equal(slot.el.firstElementChild, first, 'the first card is the same element');
    assert.equal(slot.el.children.length, 2);
    slot.render([], []);
    assert.equal(slot.waiting, false);
    assert.deepEqual(focusLeft, [1]);
    assert.equal(document.activeElement, composer);
  });

  it('answers a click, but not a keyboard press in the moment the card appears (a key meant for the message box)', async () => {
    const { slot, answers } = setup();
    slot.render([request('c1')], []);
    const [allow] = buttons(slot.el);
    assert.ok(allow);
    allow.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    assert.deepEqual(answers, [], 'a keyboard activation right away is ignored');
    allow.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    assert.deepEqual(answers, ['c1:allow_once']);
    slot.render([request('c2')], []);
    await new Promise((r) => setTimeout(r, 450));
    const deny = buttons(slot.el).find((b) => b.textContent === 'Deny');
    deny?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 0 }));
    assert.deepEqual(answers, ['c1:allow_once', 'c2:deny'], 'the keyboard answers once the card has been shown a moment');
  });

  it('shows a server\'s form with its defaults, focused on its first field, the message as text', () => {
    const { slot } = setup();
    slot.render([], [question]);
    const card = slot.el.querySelector('.elicitation');
    assert.ok(card);
    assert.equal(card.querySelector('.elicitation-message')?.textContent, 'Who should be added? <b>not markup</b>');
    assert.equal(card.querySelector('b'), null);
    const inputs = Array.from(card.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')).map((el) => (el.getAttribute('type') === 'checkbox' ? String((el as HTMLInputElement).checked) : el.value));
    assert.deepEqual(inputs, ['', '30', 'false', 'green']);
    assert.equal((document.activeElement as HTMLElement | null)?.dataset.key, 'name');
    assert.deepEqual(buttons(card).map((b) => b.textContent), ['Accept', 'Decline', 'Cancel']);
  });

  it('does not send a form with a problem, and says which field; sends the values once valid', () => {
    const { slot, answers } = setup();
    slot.render([], [question]);
    const accept = buttons(slot.el).find((b) => b.textContent === 'Accept');
    accept?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    assert.deepEqual(answers, []);
    assert.equal(slot.el.querySelector('.field-text .elicitation-error')?.textContent, 'Name: required');
    const name = slot.el.querySelector<HTMLInputElement>('[data-key="name"]');
    const age = slot.el.querySelector<HTMLInputElement>('[data-key="age"]');
    assert.ok(name && age);
    name.value = 'Ada';
    name.dispatchEvent(new Event('input'));
    age.value = '-2';
    age.dispatchEvent(new Event('input'));
    accept?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    assert.equal(slot.el.querySelector('.field-number .elicitation-error')?.textContent, 'Age: must be at least 0');
    assert.equal(slot.el.querySelector('.field-text .elicitation-error')?.textContent, '');
    age.value = '36';
    age.dispatchEvent(new Event('input'));
    accept?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    assert.deepEqual(answers, [`c3#1:${JSON.stringify({ action: 'accept', content: { age: 36, newsletter: false, color: 'green', name: 'Ada' } })}`]);
  });

  it('a link question offers to open it; Decline and Cancel send no content', () => {
    const { slot, answers } = setup();
    slot.render([], [{ promptId: 'c4#1', callId: 'c4', toolName: 'pay__checkout', server: 'pay', message: 'Confirm in your browser', mode: 'url', url: 'https://pay.example.com/confirm?id=1' }]);
    assert.equal(slot.el.querySelector('.elicitation-url code')?.textContent, 'https://pay.example.com/confirm?id=1');
    assert.deepEqual(buttons(slot.el).map((b) => b.textContent), ['Open link', 'Decline', 'Cancel']);
    buttons(slot.el).find((b) => b.textContent === 'Decline')?.dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }));
    assert.deepEqual(answers, ['c4#1:{"action":"decline"}']);
  });
});
