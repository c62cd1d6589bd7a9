import type { ApprovalAnswer, ApprovalRequest } from '../../src/protocol';
import { button, h, icon } from '../dom';
import { formatInput, textBlock } from './output';

/**
 * How long a new card ignores keyboard presses (ms). It takes the focus as it appears, so an Enter
 * or a Space meant for the message box (a held key, a quick second press) would otherwise answer it.
 */
const KEY_GRACE_MS = 400;

/** The prompt for one pending call; the host settles it, so the buttons only send the answer. */
export function renderApproval(req: ApprovalRequest, answer: (callId: string, a: ApprovalAnswer) => void): HTMLElement {
  const box = h('div', { class: 'approval', attrs: { role: 'group', 'aria-label': `Approve ${req.toolName}` } });
  const buttons: HTMLButtonElement[] = [];
  const shownAt = performance.now();
  const send = (a: ApprovalAnswer) => (ev: MouseEvent) => {
    // A click from the keyboard has no pointer detail.
    if (ev.detail === 0 && performance.now() - shownAt < KEY_GRACE_MS) return;
    for (const b of buttons) b.disabled = true;
    answer(req.callId, a);
  };
  buttons.push(
    button({ label: 'Allow once', title: 'Run this call', class: 'primary', onClick: send('allow_once') }),
    button({ label: 'Always allow this tool', title: `Run ${req.toolName} without asking from now on`, class: 'secondary', onClick: send('always_allow') }),
    button({ label: 'Deny', title: 'Do not run this call; the model is told it was denied', class: 'secondary', onClick: send('deny') }),
  );
  const input = h('details', { class: 'approval-input' }, h('summary', {}, icon('chevron-right', 'chevron'), 'Input'), textBlock(formatInput(req.input), 'tool-text tool-input'));
  input.open = true;
  box.append(
    h('div', { class: 'approval-title' }, icon('shield'), h('span', {}, 'Run '), h('code', { class: 'tool-name' }, req.toolName), h('span', {}, '?')),
    input,
    h('div', { class: 'approval-actions' }, ...buttons),
  );
  return box;
}
