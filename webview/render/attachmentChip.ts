import type { AttachmentChip } from '../../src/protocol';
import { button, h, icon } from '../dom';

const ICONS: Record<AttachmentChip['kind'], string> = { selection: 'selection', file: 'file', problems: 'warning', resource: 'server-process' };

function lines(chip: AttachmentChip): string {
  if (chip.range === null) return '';
  return chip.range.start === chip.range.end ? `:${chip.range.start}` : `:${chip.range.start}-${chip.range.end}`;
}

/** An attachment as a chip: its name and lines; clicking opens it, and `onRemove` (when given) adds a remove button. */
export function renderAttachmentChip(chip: AttachmentChip, onOpen: (id: string) => void, onRemove: ((id: string) => void) | null): HTMLElement {
  const name = `${chip.label}${lines(chip)}`;
  const open = h('button', { class: 'chip-open', title: `Open ${chip.path}${lines(chip)}`, attrs: { type: 'button' } }, icon(ICONS[chip.kind]), h('span', { class: 'chip-label' }, name));
  open.addEventListener('click', () => onOpen(chip.id));
  const el = h('span', { class: `attachment-chip attachment-${chip.kind}`, attrs: { 'data-path': chip.path } }, open);
  if (onRemove) el.append(button({ icon: 'close', title: `Remove ${name}`, class: 'chip-remove', onClick: () => onRemove(chip.id) }));
  return el;
}
