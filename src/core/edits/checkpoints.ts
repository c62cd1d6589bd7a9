import type { StreamEvent } from '../stream/events';
import type { ChangeSummary, FileChange } from './fileChange';
import { summarizeChange } from './lineCounts';

type UndoneEvent = Extract<StreamEvent, { type: 'changes_undone' }>;

/** The file changes one turn made that are still in force, in the order they were made, with the calls that made them. */
export interface TurnCheckpoint {
  readonly toolUseIds: readonly string[];
  readonly changes: readonly FileChange[];
}

/** Every call whose changes the user undid. */
export function undoneCalls(events: readonly StreamEvent[]): Set<string> {
  return new Set(events.flatMap((e) => (e.type === 'changes_undone' ? e.toolUseIds : [])));
}

/**
 * The checkpoint of the turn that `turnEndIndex` ends: the changes its calls recorded (from its
 * turn_start on), less those already undone. Derived from the stream alone, so Undo works the
 * same after a reload.
 */
export function turnCheckpoint(events: readonly StreamEvent[], turnEndIndex: number): TurnCheckpoint {
  let start = turnEndIndex;
  while (start > 0 && events[start]?.type !== 'turn_start') start--;
  const undone = undoneCalls(events);
  const toolUseIds: string[] = [];
  const changes: FileChange[] = [];
  for (const e of events.slice(start, turnEndIndex + 1)) {
    if (e.type !== 'tool_result' || e.changes === undefined || undone.has(e.toolUseId)) continue;
    toolUseIds.push(e.toolUseId);
    changes.push(...e.changes);
  }
  return { toolUseIds, changes };
}

/** The change that puts a file back as it was before `change`. */
export function inverseChange(change: FileChange): FileChange {
  switch (change.kind) {
    case 'edit': return { ...change, before: change.after, after: change.before };
    case 'create': return { kind: 'delete', path: change.path, label: change.label, before: change.after };
    case 'delete': return { kind: 'create', path: change.path, label: change.label, after: change.before };
    case 'rename': return { kind: 'rename', path: change.fromPath, label: change.fromLabel, fromPath: change.path, fromLabel: change.label, text: change.text };
  }
}

/** What undoing a checkpoint applies: each change's inverse, latest first. */
export function undoChanges(checkpoint: TurnCheckpoint): FileChange[] {
  return [...checkpoint.changes].reverse().map(inverseChange);
}

/**
 * One row per file a set of changes touched, in first-touched order, with its lines added and
 * removed summed: what a turn's summary lists.
 */
export function filesTouched(changes: readonly FileChange[]): ChangeSummary[] {
  const rows = new Map<string, ChangeSummary>();
  for (const change of changes) {
    const summary = summarizeChange(change);
    const seen = rows.get(summary.label);
    rows.set(summary.label, seen === undefined ? summary : { ...seen, added: seen.added + summary.added, removed: seen.removed + summary.removed, kind: seen.kind === 'create' ? 'create' : summary.kind });
  }
  return [...rows.values()];
}

/** What the model reads, with the user's next message, of an undo it did not see happen. */
export function undoneText(e: UndoneEvent): string {
  const restored = e.restored.length > 0 ? ` Restored as they were before: ${e.restored.join(', ')}.` : '';
  const skipped = e.skipped.length > 0 ? ` Left as they are: ${e.skipped.map((s) => `${s.label} (${s.why})`).join(', ')}.` : '';
  return `[Quiver] The user undid the file changes of your earlier turn (Undo this turn's changes).${restored}${skipped} Read a file again before editing it.`;
}
