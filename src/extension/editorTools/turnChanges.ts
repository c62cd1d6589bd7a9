import { eventIndexOfItem } from '../../core/chat';
import { turnCheckpoint, undoChanges } from '../../core/edits';
import type { StreamEvent } from '../../core/stream';
import { applyEach } from './applyChanges';
import type { ChangeDiffs } from './changeDiffs';
import type { EditorToolSource } from './editorToolSource';

type UndoneEvent = Extract<StreamEvent, { type: 'changes_undone' }>;

/**
 * The chat's actions on the files a turn changed: open one change as a diff (a proposal waiting
 * for its answer, or a change recorded in the stream), and Undo this turn's changes, which puts
 * back every file the turn changed, from the checkpoint in the stream (so it works after a reload).
 */
export class TurnChangeActions {
  constructor(
    private readonly source: EditorToolSource,
    private readonly diffs: ChangeDiffs,
  ) {}

  /** Opens change `index` of call `callId`: its proposal while it waits for approval, else what the stream recorded. */
  async open(events: readonly StreamEvent[], callId: string, index: number): Promise<boolean> {
    const recorded = events.find((e): e is Extract<StreamEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.toolUseId === callId)?.changes?.[index];
    if (recorded === undefined) {
      await this.source.showProposal(callId, index, false);
      return true;
    }
    const undone = events.some((e) => e.type === 'changes_undone' && e.toolUseIds.includes(callId));
    await this.diffs.open(recorded, undone ? 'applied, then undone' : 'applied');
    return true;
  }

  /**
   * Undoes the changes of the turn whose summary is `summaryItemId` and returns the event that
   * records it, or undefined when the turn has nothing left to undo. A file changed since the turn
   * is left as it is and named in the event.
   */
  async undo(events: readonly StreamEvent[], summaryItemId: string): Promise<UndoneEvent | undefined> {
    const index = eventIndexOfItem(summaryItemId);
    if (index === undefined || events[index]?.type !== 'turn_end') return undefined;
    const checkpoint = turnCheckpoint(events, index);
    if (checkpoint.toolUseIds.length === 0) return undefined;
    const { applied, skipped } = await applyEach(undoChanges(checkpoint));
    return {
      type: 'changes_undone',
      toolUseIds: checkpoint.toolUseIds,
      restored: [...new Set(applied.map((c) => c.label))],
      skipped: skipped.map((s) => ({ label: s.change.label, why: s.why })),
      at: new Date().toISOString(),
    };
  }
}
