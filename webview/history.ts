import type { ChatSnapshot, ConversationSummary } from '../src/protocol';
import { button, h, icon } from './dom';
import { post } from './vscodeApi';

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayThisYear = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

/** As short as it can be and still tell chats apart: the time today, the day this year, else the date. */
function when(iso: string, now = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (d.toDateString() === now.toDateString()) return time.format(d);
  return d.getFullYear() === now.getFullYear() ? dayThisYear.format(d) : day.format(d);
}

function whenInFull(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : full.format(d);
}

/** The conversation list: open, rename in place, delete (the host asks for confirmation). */
export class HistoryPanel {
  readonly el = h('div', { class: 'history-panel', attrs: { role: 'dialog', 'aria-label': 'Chat history' } });
  private editing: string | null = null;
  private last: ChatSnapshot | null = null;

  constructor(private readonly onClose: () => void) {
    this.el.hidden = true;
  }

  get visible(): boolean {
    return !this.el.hidden;
  }

  toggle(show = this.el.hidden): void {
    this.el.hidden = !show;
    this.editing = null;
    if (show && this.last) this.render(this.last);
  }

  render(state: ChatSnapshot): void {
    this.last = state;
    if (this.el.hidden || this.editing !== null) return;
    const header = h('div', { class: 'history-header' }, h('span', { class: 'history-heading' }, 'Chats'), button({ icon: 'close', title: 'Close history', onClick: () => this.onClose() }));
    const list = h('ul', { class: 'history-list' });
    if (state.conversations.length === 0) list.append(h('li', { class: 'muted history-empty' }, 'No saved chats yet.'));
    for (const c of state.conversations) list.append(this.row(c, c.id === state.conversation.id));
    this.el.replaceChildren(header, list);
  }

  private row(c: ConversationSummary, current: boolean): HTMLLIElement {
    const open = h('button', { class: 'history-open', title: c.title, attrs: { type: 'button' } }, icon(current ? 'comment-discussion' : 'comment'), h('span', { class: 'history-title' }, c.title), h('span', { class: 'history-date', title: whenInFull(c.updatedAt) }, when(c.updatedAt)));
    open.addEventListener('click', () => {
      post({ type: 'openConversation', id: c.id });
      this.onClose();
    });
    const li = h(
      'li',
      { class: `history-row${current ? ' current' : ''}` },
      open,
      h(
        'span',
        { class: 'history-actions' },
        // Named after the chat: a screen reader going down the list hears which one each acts on.
        button({ icon: 'edit', title: `Rename chat '${c.title}'`, onClick: () => this.startRename(li, c) }),
        button({ icon: 'trash', title: `Delete chat '${c.title}'`, onClick: () => post({ type: 'deleteConversation', id: c.id }) }),
      ),
    );
    return li;
  }

  private startRename(li: HTMLLIElement, c: ConversationSummary): void {
    this.editing = c.id;
    const input = h('input', { class: 'rename-input', attrs: { type: 'text', 'aria-label': `New title for chat '${c.title}'`, maxlength: '200' } });
    input.value = c.title;
    let done = false;
    const finish = (commit: boolean): void => {
      if (done) return;
      done = true;
      this.editing = null;
      const title = input.value.trim();
      if (commit && title !== '' && title !== c.title) post({ type: 'renameConversation', id: c.id, title });
      if (this.last) this.render(this.last);
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') finish(true);
      else if (e.key === 'Escape') {
        e.stopPropagation();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
    li.replaceChildren(input);
    input.focus();
    input.select();
  }
}
