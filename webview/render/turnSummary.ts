import type { TokenUsage, TurnSummaryItem } from '../../src/protocol';
import { button, formatCount, h, icon } from '../dom';
import { turnChangesRow } from './changes';

const REASON: Record<TurnSummaryItem['reason'], string | null> = {
  done: null,
  cancelled: 'Stopped',
  max_cycles: 'Stopped: the turn reached the most model responses allowed (quiver.maxCyclesPerTurn)',
  cut_off: 'Cut off',
  declined: 'Declined by the model',
  error: 'Failed',
};

export function usageText(u: TokenUsage): string {
  const parts = [`${formatCount(u.input)} in`, `${formatCount(u.output)} out`];
  if (u.cacheRead > 0) parts.push(`${formatCount(u.cacheRead)} cached`);
  if (u.cacheWrite > 0) parts.push(`${formatCount(u.cacheWrite)} cache write`);
  return parts.join(' · ');
}

export function usageTitle(u: TokenUsage): string {
  return `Input ${u.input}, output ${u.output}, cache read ${u.cacheRead}, cache write ${u.cacheWrite} tokens`;
}

/** The line closing a turn: why it ended (when not plainly done), model and token usage. */
export function renderTurnSummary(item: TurnSummaryItem, regenerate: (() => void) | null): HTMLElement {
  const reason = REASON[item.reason];
  const row = h('div', { class: `turn-summary reason-${item.reason}` });
  if (reason !== null || item.message !== null) {
    row.append(
      h(
        'div',
        { class: 'turn-reason' },
        icon(item.reason === 'error' ? 'error' : 'debug-stop'),
        h('span', {}, [reason, item.message].filter((s): s is string => s !== null && s !== '').join(': ')),
      ),
    );
  }
  const meta = h('div', { class: 'turn-meta' });
  if (item.model !== null) meta.append(h('span', {}, item.model));
  if (item.usage !== null) meta.append(h('span', { title: usageTitle(item.usage) }, usageText(item.usage)));
  if (regenerate) meta.append(button({ icon: 'refresh', title: 'Regenerate this reply', class: 'regenerate', onClick: regenerate }));
  if (meta.childElementCount > 0) row.append(meta);
  if (item.changes !== null) row.append(turnChangesRow(item.id, item.changes));
  return row;
}
