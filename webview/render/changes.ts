import type { ChangeSummary, TurnChanges } from '../../src/protocol';
import { button, h, icon } from '../dom';
import { post } from '../vscodeApi';

const KIND_ICON: Record<ChangeSummary['kind'], string> = { edit: 'edit', create: 'new-file', delete: 'trash', rename: 'arrow-right' };
const KIND_WORD: Record<ChangeSummary['kind'], string> = { edit: 'edited', create: 'new', delete: 'deleted', rename: 'moved' };

/** `+3 −1`, the lines a change adds and removes. */
function lineCounts(change: ChangeSummary): HTMLElement {
  return h('span', { class: 'change-counts' }, h('span', { class: 'added' }, `+${change.added}`), ' ', h('span', { class: 'removed' }, `−${change.removed}`));
}

/**
 * One row per file a call changes (or would change): its path as a link that opens the diff, what
 * happens to it, and its line counts. Clicks never toggle a card the list sits in.
 */
export function changeList(callId: string, changes: readonly ChangeSummary[]): HTMLElement {
  const list = h('span', { class: 'change-list' });
  changes.forEach((change, index) => {
    const name = change.kind === 'rename' ? `${change.fromLabel ?? ''} → ${change.label}` : change.label;
    const open = button({
      label: name,
      title: `Open the diff of ${name}`,
      class: 'change-file',
      onClick: (ev) => {
        ev.preventDefault();
        ev.stopPropagation();
        post({ type: 'openChange', callId, index });
      },
    });
    list.append(h('span', { class: `change-row change-${change.kind}` }, icon(KIND_ICON[change.kind]), open, h('span', { class: 'muted' }, KIND_WORD[change.kind]), lineCounts(change)));
  });
  return list;
}

/** The close of a turn that changed files: which, with their line counts, and Undo this turn's changes (or that they were undone). */
export function turnChangesRow(itemId: string, changes: TurnChanges): HTMLElement {
  const files = changes.files.map((f) => h('span', { class: `change-row change-${f.kind}` }, icon(KIND_ICON[f.kind]), h('span', { class: 'change-label' }, f.label), lineCounts(f)));
  const row = h('div', { class: 'turn-changes' }, h('span', { class: 'muted' }, `Changed ${changes.files.length} file${changes.files.length === 1 ? '' : 's'}:`), ...files);
  if (changes.undone) {
    row.append(h('span', { class: 'changes-undone' }, icon('discard'), ' Changes undone'));
  } else {
    row.append(button({ label: 'Undo this turn\'s changes', icon: 'discard', title: 'Put every file this turn changed back as it was (a file you edited since is left alone)', class: 'secondary undo-changes', onClick: () => post({ type: 'undoChanges', itemId }) }));
  }
  return row;
}
