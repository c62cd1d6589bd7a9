import { diffLines, createTwoFilesPatch } from 'diff';
import type { ChangeSummary, FileChange } from './fileChange';
import { textAfter, textBefore } from './fileChange';

/** Lines added and removed between two texts (a missing file counts as empty). */
export function lineCounts(before: string | null, after: string | null): { readonly added: number; readonly removed: number } {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before ?? '', after ?? '')) {
    if (part.added) added += part.count;
    else if (part.removed) removed += part.count;
  }
  return { added, removed };
}

// Keyed by the recorded change: the chat's history is rebuilt from the stream at every event, and
// a line diff of a long file is worth computing once.
const summaries = new WeakMap<FileChange, ChangeSummary>();

export function summarizeChange(change: FileChange): ChangeSummary {
  let summary = summaries.get(change);
  if (summary === undefined) {
    summary = {
      label: change.label,
      kind: change.kind,
      ...lineCounts(textBefore(change), textAfter(change)),
      fromLabel: change.kind === 'rename' ? change.fromLabel : null,
    };
    summaries.set(change, summary);
  }
  return summary;
}

/**
 * A unified diff of one change, for the model: what was applied exactly, so it need not read
 * the file again. Three lines of context, as `diff -u` writes them.
 */
export function unifiedDiff(change: FileChange): string {
  if (change.kind === 'rename') return `renamed ${change.fromLabel} → ${change.label} (content unchanged)`;
  const from = change.kind === 'create' ? '/dev/null' : `a/${change.label}`;
  const to = change.kind === 'delete' ? '/dev/null' : `b/${change.label}`;
  const patch = createTwoFilesPatch(from, to, textBefore(change) ?? '', textAfter(change) ?? '', undefined, undefined, { context: 3 });
  // The first line is a separator row of '=' that `diff -u` does not write.
  return patch.split('\n').filter((line) => !/^=+$/.test(line)).join('\n').trimEnd();
}
