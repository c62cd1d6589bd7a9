import type { UserItem } from '../../src/protocol';
import { button, h, icon } from '../dom';
import { post } from '../vscodeApi';
import { renderAttachmentChip } from './attachmentChip';

/** What a failed message offers: send it again, take it back into the composer, or remove it. */
export interface FailedMessageActions {
  readonly retry: (item: UserItem) => void;
  readonly edit: (item: UserItem) => void;
  readonly drop: (item: UserItem) => void;
}

/** Why the message was not sent, by cause; a conversation recorded before causes were says only that its request failed. */
function notSentNote(item: UserItem): string {
  return `Not sent: ${item.cause ?? 'the request failed'}. It will not be sent with your next message.`;
}

/** A user message; one that was not sent says why and offers Retry, Edit and Drop (none while a turn runs). */
export function renderUserMessage(item: UserItem, actions: FailedMessageActions | null): HTMLElement {
  const el = h(
    'div',
    { class: `item user${item.status === 'failed' ? ' failed' : ''}` },
    item.forced !== null ? h('div', { class: 'forced', title: 'This message offered the tool for its turn (/use)' }, icon('tools'), h('span', {}, 'using '), h('code', {}, item.forced)) : null,
    item.attachments.length > 0 ? h('div', { class: 'attachments' }, ...item.attachments.map((chip) => renderAttachmentChip(chip, (id) => post({ type: 'openAttachment', id }), null))) : null,
    h('div', { class: 'user-text' }, item.text),
  );
  if (item.status !== 'failed') return el;
  const bar = h('div', { class: 'failed-bar' }, icon('warning'), h('span', { class: 'failed-note' }, notSentNote(item)));
  if (actions) {
    bar.append(
      button({ label: 'Retry', title: 'Send this message again', onClick: () => actions.retry(item) }),
      button({ label: 'Edit', title: 'Put this message back in the message box', onClick: () => actions.edit(item) }),
      button({ label: 'Drop', title: 'Remove this message from the chat', onClick: () => actions.drop(item) }),
    );
  }
  el.append(bar);
  return el;
}
