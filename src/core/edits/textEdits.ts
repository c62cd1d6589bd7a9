/** One replacement by offsets into the original text: `[start, end)` becomes `text`. */
export interface OffsetEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export type OffsetEditsOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

/**
 * Applies `edits` (offsets all into the original `text`, as a language service returns them) at
 * once: from the last start to the first, so no edit moves the offsets of another. Edits that
 * overlap or fall outside the text fail the whole call. Two insertions at the same offset keep
 * their given order.
 */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): OffsetEditsOutcome {
  for (const e of edits) {
    if (!Number.isInteger(e.start) || !Number.isInteger(e.end) || e.start < 0 || e.end < e.start || e.end > text.length) {
      return { ok: false, message: `the edit of [${e.start}, ${e.end}) is outside the text (length ${text.length}).` };
    }
  }
  // Ascending by start (then end), stable: the given order breaks ties.
  const ordered = edits.map((edit, index) => ({ edit, index })).sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index);
  for (let i = 1; i < ordered.length; i++) {
    const prev = ordered[i - 1]?.edit;
    const next = ordered[i]?.edit;
    if (prev !== undefined && next !== undefined && next.start < prev.end) {
      return { ok: false, message: `the edits of [${prev.start}, ${prev.end}) and [${next.start}, ${next.end}) overlap.` };
    }
  }
  let result = text;
  for (let i = ordered.length - 1; i >= 0; i--) {
    const edit = ordered[i]?.edit;
    if (edit !== undefined) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return { ok: true, text: result };
}
