import type { HistoryItem, ProgressView, ToolOutcome } from '../../src/protocol';
import { h, icon } from '../dom';
import { changeList } from './changes';
import { keptNote } from './keptNote';
import { formatInput, renderOutput, textBlock } from './output';

type ToolCallItem = Extract<HistoryItem, { kind: 'tool_call' }>;

const STATUS: Record<ToolOutcome['status'], { readonly icon: string; readonly label: string; readonly verb: string }> = {
  running: { icon: 'loading codicon-modifier-spin', label: 'Running', verb: 'Running ' },
  done: { icon: 'check', label: 'Done', verb: 'Ran ' },
  error: { icon: 'error', label: 'Failed', verb: 'Ran ' },
  cancelled: { icon: 'circle-slash', label: 'Cancelled', verb: 'Did not run ' },
  stopped: { icon: 'debug-stop', label: 'Stopped while running', verb: 'Ran ' },
  denied: { icon: 'circle-slash', label: 'Denied', verb: 'Did not run ' },
  refused: { icon: 'circle-slash', label: 'Not allowed', verb: 'Did not run ' },
};

const OUTPUT_LABEL = { done: 'Output', error: 'Error', denied: 'Told the model', refused: 'Why', stopped: 'Told the model' } as const;

/** "3 of 10 · copying": what the server last said of its progress. */
function progressNote(p: ProgressView): HTMLElement {
  const amount = p.total === null ? String(p.progress) : `${p.progress} of ${p.total}`;
  const text = p.message === null ? amount : `${amount} · ${p.message}`;
  const el = h('span', { class: 'tool-progress', title: text }, text);
  if (p.total !== null && p.total > 0) el.setAttribute('aria-label', `${Math.round((100 * p.progress) / p.total)}% done${p.message === null ? '' : `: ${p.message}`}`);
  return el;
}

export function statusIcon(status: ToolOutcome['status']): HTMLSpanElement {
  return icon(STATUS[status].icon, `status-icon status-${status}`);
}

/**
 * A collapsible card for one tool call. `open` carries the user's expand/collapse choice across
 * re-renders; a failed call opens by default so the error is visible. `asking`: its server's
 * question waits for the user.
 */
export function renderToolCard(item: ToolCallItem, open: boolean | null, asking = false): HTMLElement {
  const status = item.outcome.status;
  const details = h('details', { class: `card tool-card status-${status}` });
  details.open = open ?? status === 'error';
  const summary = h(
    'summary',
    { title: `${item.name}: ${STATUS[status].label}` },
    icon('chevron-right', 'chevron'),
    statusIcon(status),
    h('span', { class: 'card-title' }, h('span', { class: 'muted' }, STATUS[status].verb), h('code', { class: 'tool-name' }, item.name)),
    status === 'running' || status === 'done' ? null : h('span', { class: `card-state state-${status}` }, STATUS[status].label),
    (item.outcome.status === 'done' || item.outcome.status === 'error') && item.outcome.kept ? keptNote(item.outcome.kept) : null,
    item.outcome.status === 'done' && item.outcome.changes ? changeList(item.id, item.outcome.changes) : null,
    item.outcome.status === 'running' && item.outcome.progress ? progressNote(item.outcome.progress) : null,
    asking ? h('span', { class: 'card-state state-asking', title: 'Its server asks you something: the question is above the message box' }, icon('question'), ' Waiting for your answer') : null,
  );
  const body = h('div', { class: 'card-body' }, h('div', { class: 'section-label' }, 'Input'), textBlock(formatInput(item.input), 'tool-text tool-input'));
  if (item.outcome.status !== 'running' && item.outcome.status !== 'cancelled') {
    body.append(h('div', { class: 'section-label' }, OUTPUT_LABEL[item.outcome.status]), renderOutput(item.outcome.output));
  }
  details.append(summary, body);
  return details;
}
