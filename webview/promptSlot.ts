import type { ApprovalAnswer, ApprovalRequest, ElicitationPromptView, ElicitationReply } from '../src/protocol';
import { h } from './dom';
import { renderApproval } from './render/approval';
import { renderElicitation } from './render/elicitation';

export interface PromptSlotHooks {
  readonly answer: (callId: string, answer: ApprovalAnswer, reason: string) => void;
  readonly reply: (promptId: string, reply: ElicitationReply) => void;
  /** The user is typing in the message box: a new prompt then shows without taking the focus (their keys would land on its buttons). */
  readonly typing: () => boolean;
  /** The last prompt went while it had the focus: where the focus goes instead of nowhere. */
  readonly focusLeft: () => void;
}

/**
 * The place above the message box for every prompt a turn waits on: approvals, and the
 * questions a server asks during a call (elicitation). It never scrolls and never shrinks: the layout
 * (chat.css) takes the room from the transcript, so a waiting turn always shows
 * what it waits for. A new prompt takes the focus on its first button when the chat has the
 * focus and the user is not typing a message, and the chat is scrolled so the prompt is whole.
 */
export class PromptSlot {
  readonly el = h('div', { class: 'approvals' });
  private shown = new Map<string, HTMLElement>();

  constructor(private readonly hooks: PromptSlotHooks) {
    // The webview drops its focus when the workbench takes it (a click on the Tools pane): coming
    // back to the chat with nothing in particular focused lands on the question it waits on.
    window.addEventListener('focus', () => {
      const at = document.activeElement;
      if (this.waiting && (at === null || at === document.body)) this.focusFirst(this.el.firstElementChild);
    });
  }

  get waiting(): boolean {
    return this.shown.size > 0;
  }

  render(approvals: readonly ApprovalRequest[], questions: readonly ElicitationPromptView[]): void {
    const pending = [
      ...approvals.map((req) => ({ key: `approval:${req.callId}`, draw: () => renderApproval(req, this.hooks.answer) })),
      ...questions.map((q) => ({ key: `question:${q.promptId}`, draw: () => renderElicitation(q, this.hooks.reply) })),
    ];
    if (pending.length === this.shown.size && pending.every((p) => this.shown.has(p.key))) return;
    const hadFocus = this.el.contains(document.activeElement);
    const next = new Map<string, HTMLElement>();
    let fresh: HTMLElement | undefined;
    for (const { key, draw } of pending) {
      const known = this.shown.get(key);
      const card = known ?? draw();
      if (!known) fresh ??= card;
      next.set(key, card);
    }
    this.shown = next;
    // Cards still waiting are moved, not redrawn: one keeps its focus, its opened input and what was typed in its form.
    this.el.replaceChildren(...next.values());
    if (fresh) this.present(fresh);
    else if (hadFocus && !this.el.contains(document.activeElement)) this.hooks.focusLeft();
  }

  /** Scrolls the chat (when it is too short to hold everything) so a prompt (the first) is whole, its answers above all. */
  reveal(card: Element | null = this.el.firstElementChild): void {
    if (!(card instanceof HTMLElement)) return;
    card.scrollIntoView({ block: 'nearest' });
    // A card taller than the view: its last part, the row of answers, is what must show.
    card.lastElementChild?.scrollIntoView({ block: 'nearest' });
  }

  private present(card: HTMLElement): void {
    // In a view too short for the whole card its details (the call's input) start folded, so the question and its answers fit; a click unfolds them.
    if (card.getBoundingClientRect().height > window.innerHeight) for (const details of card.querySelectorAll('details')) details.open = false;
    // Never from elsewhere in the workbench: focus taken from an editor would turn the user's next keys into answers.
    if (document.hasFocus() && !this.hooks.typing()) this.focusFirst(card);
    this.reveal(card);
  }

  /** A server's form's first field, else the first button (an approval's optional reason box is not where its answer starts). */
  private focusFirst(card: Element | null): void {
    (card?.querySelector<HTMLElement>('.elicitation-form input, .elicitation-form select') ?? card?.querySelector('button'))?.focus({ preventScroll: true });
  }
}
