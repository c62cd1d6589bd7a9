import type { HistoryItem } from '../../src/protocol';
import { h, icon } from '../dom';
import { renderMarkdown } from './markdown';

type CompactedItem = Extract<HistoryItem, { kind: 'compacted' }>;

/**
 * The Compacted marker: everything above stays in the transcript for the user, while the model
 * reads the summary (collapsed, as model markdown, sanitized like any reply).
 */
export function renderCompacted(item: CompactedItem): HTMLElement {
  const details = h('details', { class: 'item compacted' });
  const label = 'Compacted: the model now reads a summary of the conversation above';
  details.append(h('summary', {}, icon('fold'), h('span', {}, label)));
  details.append(item.summary === null ? h('p', { class: 'muted' }, 'The API returned no summary for this compaction.') : renderMarkdown(item.summary));
  return details;
}
