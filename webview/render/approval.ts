import type { ApprovalAnswer, ApprovalRequest } from '../../src/protocol';
import { append, button, h, icon } from '../dom';
import { changeList } from './changes';
import { formatInput, textBlock } from './output';

/**
 * How long a new card ignores keyboard presses (ms). It takes the focus as it appears, so an Enter
 * or a Space meant for the message box (a held key, a quick second press) would otherwise answer it.
 */
const KEY_GRACE_MS = 400;

/** The prompt for one pending call; the host settles it, so the buttons only send the answer. */
export function renderApproval(req: ApprovalRequest, answer: (callId: string, a: ApprovalAnswer, reason: string) => void): HTMLElement {
  const box = h('div', { class: 'approval', attrs: { role: 'group', 'aria-label': `Approve ${req.toolName}` } });
  const buttons: HTMLButtonElement[] = [];
  const shownAt = performance.now();
  const send = (a: ApprovalAnswer) => (ev: MouseEvent) => {
    // A click from the keyboard has no pointer detail.
    if (ev.detail === 0 && performance.now() - shownAt < KEY_GRACE_MS) return;
    for (const b of buttons) b.disabled = true;
    answer(req.callId, a, a === 'deny' && reason !== null ? reason.value : '');
  };
  const changes = req.review?.changes ?? [];
  const mustAsk = req.review?.mustAsk ?? null;
  const isChange = changes.length > 0;
  // A change to files takes a reason with its rejection (the model should not try the same edit again); a plain call's card stays as small as before.
  const reason = isChange ? h('input', { class: 'approval-reason', attrs: { type: 'text', placeholder: 'Why reject? (optional, the model is told)', 'aria-label': 'Reason for the model (optional)', maxlength: '2000' } }) : null;
  buttons.push(...[
    button({ label: isChange ? 'Accept' : 'Allow once', title: isChange ? 'Apply this change' : 'Run this call', class: 'primary', onClick: send('allow_once') }),
    // A call that must ask whatever its policy (outside the workspace, Quiver's own settings) asks every time.
    mustAsk === null ? button({ label: 'Always allow this tool', title: `Run ${req.toolName} without asking from now on`, class: 'secondary', onClick: send('always_allow') }) : null,
    button({ label: isChange ? 'Reject' : 'Deny', title: isChange ? 'Do not apply this change; the model is told it was rejected' : 'Do not run this call; the model is told it was denied', class: 'secondary', onClick: send('deny') }),
  ].filter((b): b is HTMLButtonElement => b !== null));
  const input = h('details', { class: 'approval-input' }, h('summary', {}, icon('chevron-right', 'chevron'), 'Input'), textBlock(formatInput(req.input), 'tool-text tool-input'));
  input.open = !isChange;
  const title = isChange
    ? h('div', { class: 'approval-title' }, icon('diff'), h('span', {}, 'Apply this change of '), h('code', { class: 'tool-name' }, req.toolName), h('span', {}, '?'))
    : h('div', { class: 'approval-title' }, icon('shield'), h('span', {}, 'Run '), h('code', { class: 'tool-name' }, req.toolName), h('span', {}, '?'));
  append(
    box,
    title,
    isChange ? changeList(req.callId, changes) : null,
    mustAsk === null ? null : h('div', { class: 'approval-must-ask' }, icon('warning'), h('span', {}, `Asks every time: ${mustAsk}.`)),
    input,
    reason,
    h('div', { class: 'approval-actions' }, ...buttons),
  );
  return box;
}
