import type { KeptOutput } from '../../src/protocol';
import { button, h } from '../dom';
import { post } from '../vscodeApi';

const count = (value: number): string => value.toLocaleString('en-US');

/**
 * On the card of a result the model got a view of: how much it showed, and a button that opens
 * the whole in a read-only editor. It sits in the card's summary, so it shows while the card is
 * closed; the button's click never toggles the card.
 */
export function keptNote(kept: KeptOutput): HTMLElement {
  const open = button({
    label: 'Open full result',
    title: `Open the whole result (${count(kept.totalChars)} characters) in a read-only editor`,
    class: 'open-result',
    onClick: (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      post({ type: 'openResult', ref: kept.ref });
    },
  });
  return h('span', { class: 'kept-note' }, h('span', { class: 'muted' }, `showed ${count(kept.shownChars)} of ${count(kept.totalChars)} characters — full result kept`), open);
}
