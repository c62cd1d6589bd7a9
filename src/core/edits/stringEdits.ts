/** One exact-string replacement the model asked for. */
export interface StringEdit {
  readonly oldString: string;
  readonly newString: string;
  /** Replace every occurrence instead of requiring exactly one. */
  readonly replaceAll: boolean;
}

export type StringEditsOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** How many lines of the file a failed match shows around its nearest candidate. */
const NEAREST_CONTEXT = 2;

/**
 * Applies `edits` in order to `text`, each to the result of the ones before, all or nothing. An
 * `oldString` that is not found, or is found more than once without `replaceAll`, fails the
 * whole call with a message saying which edit, why, and the lines of the file nearest to it, so
 * the model can correct its string without reading the file again.
 */
export function applyStringEdits(text: string, edits: readonly StringEdit[], label: string): StringEditsOutcome {
  let current = text;
  for (const [i, edit] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${i + 1} of ${edits.length}` : 'the edit';
    if (edit.oldString === '') return { ok: false, message: `${which}: "old_string" is empty; give the exact text to replace (to write a whole file, use create_file with "overwrite": true).` };
    if (edit.oldString === edit.newString) return { ok: false, message: `${which}: "old_string" and "new_string" are the same, so it would change nothing.` };
    const count = occurrences(current, edit.oldString);
    if (count === 0) return { ok: false, message: `${which}: "old_string" was not found in ${label}${i > 0 ? ' (after the edits before it)' : ''}. It must match exactly, whitespace and indentation included.${nearestLines(current, edit.oldString)}` };
    if (count > 1 && !edit.replaceAll) {
      return { ok: false, message: `${which}: "old_string" occurs ${count} times in ${label} (at lines ${matchLines(current, edit.oldString).join(', ')}). Add surrounding lines to make it unique, or set "replace_all": true to change every one.` };
    }
    current = edit.replaceAll ? current.split(edit.oldString).join(edit.newString) : replaceOnce(current, edit.oldString, edit.newString);
  }
  return { ok: true, text: current };
}

function replaceOnce(text: string, search: string, replacement: string): string {
  const at = text.indexOf(search);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/** 1-based line numbers where `search` starts. */
function matchLines(text: string, search: string): number[] {
  const lines: number[] = [];
  for (let at = text.indexOf(search); at !== -1 && lines.length < 10; at = text.indexOf(search, at + search.length)) {
    lines.push(lineOfOffset(text, at));
  }
  return lines;
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The lines of `text` closest to the first line of `search` (by shared words after trimming,
 * so a wrong indentation or one changed word still finds its place), numbered as in the file.
 */
export function nearestLines(text: string, search: string): string {
  const lines = text.split('\n');
  const wanted = search.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  if (wanted === '' || lines.length === 0) return '';
  let best = -1;
  let bestScore = 0;
  for (const [i, line] of lines.entries()) {
    const score = similarity(line.trim(), wanted);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  if (best === -1 || bestScore < 0.3) return ' No line of the file resembles its first line.';
  const from = Math.max(0, best - NEAREST_CONTEXT);
  const to = Math.min(lines.length, best + NEAREST_CONTEXT + 1);
  const shown = lines.slice(from, to).map((l, k) => `${String(from + k + 1).padStart(6)}\t${l}`).join('\n');
  return ` The nearest lines of the file:\n${shown}`;
}

/** Share of `b`'s tokens (words and symbols) found in `a`, 0–1; an exact trimmed match is 1. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const tokens = (s: string): string[] => s.split(/(\W)/).filter((t) => t.trim() !== '');
  const have = new Map<string, number>();
  for (const t of tokens(a)) have.set(t, (have.get(t) ?? 0) + 1);
  const want = tokens(b);
  if (want.length === 0) return 0;
  let shared = 0;
  for (const t of want) {
    const n = have.get(t) ?? 0;
    if (n > 0) {
      shared++;
      have.set(t, n - 1);
    }
  }
  return shared / Math.max(want.length, tokens(a).length);
}

/**
 * The smallest single replacement turning `before` into `after` (common head and tail kept), as
 * offsets into `before`: an editor applies it as one edit, so cursors and folds outside it stay.
 */
export function minimalReplacement(before: string, after: string): { readonly start: number; readonly end: number; readonly text: string } {
  let head = 0;
  const shorter = Math.min(before.length, after.length);
  while (head < shorter && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  let tail = 0;
  while (tail < shorter - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  return { start: head, end: before.length - tail, text: after.slice(head, after.length - tail) };
}
