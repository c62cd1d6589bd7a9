import * as vscode from 'vscode';
import { isInside } from '../../core/edits';
import { PathRefused, labelOf, resolveToolPath } from './workspacePaths';

/**
 * The shared part of the language tools: finding the position the model names (a path, a 1-based
 * line and a symbol written on it), waiting for a language service that is still starting, and
 * listing locations as the model reads them.
 */

/** A position the model named, found in the open document. */
export interface SymbolPosition {
  readonly document: vscode.TextDocument;
  readonly position: vscode.Position;
  readonly label: string;
}

/** The document at a path argument, opened so the language services know it (unsaved text counts), or the model's error message. */
export async function openToolDocument(written: string): Promise<{ readonly document: vscode.TextDocument; readonly label: string } | { readonly error: string }> {
  let resolved;
  try {
    resolved = await resolveToolPath(written);
  } catch (err) {
    if (err instanceof PathRefused) return { error: err.message };
    throw err;
  }
  try {
    return { document: await vscode.workspace.openTextDocument(resolved.uri), label: resolved.label };
  } catch (err) {
    return { error: `Cannot open ${resolved.label}: ${messageOf(err)}` };
  }
}

/** Where `symbol` is written on `line` (1-based) of the file at `path`, or the model's error message. */
export async function findSymbol(path: string, line: number, symbol: string): Promise<SymbolPosition | { readonly error: string }> {
  const opened = await openToolDocument(path);
  if ('error' in opened) return opened;
  const { document, label } = opened;
  if (line > document.lineCount) return { error: `${label} has ${document.lineCount} line${document.lineCount === 1 ? '' : 's'}; there is no line ${line}.` };
  const text = document.lineAt(line - 1).text;
  const column = columnOf(text, symbol);
  if (column !== -1) return { document, position: new vscode.Position(line - 1, column), label };
  const nearby: number[] = [];
  for (let d = 1; d <= 3; d++) {
    for (const n of [line - d, line + d]) {
      if (n >= 1 && n <= document.lineCount && columnOf(document.lineAt(n - 1).text, symbol) !== -1) nearby.push(n);
    }
  }
  const hint = nearby.length === 0
    ? ` It does not occur within 3 lines of it either; read the file or use workspace_symbols to find the line.`
    : ` It occurs on line ${nearby.join(' and line ')}: ${nearby.map((n) => JSON.stringify(document.lineAt(n - 1).text.trim())).join(', ')}.`;
  return { error: `"${symbol}" is not on line ${line} of ${label}, which reads: ${JSON.stringify(text)}.${hint}` };
}

/** The first occurrence of `symbol` in `text` that stands as a whole word, else its first occurrence at all; -1 when absent. */
export function columnOf(text: string, symbol: string): number {
  const word = /[\p{L}\p{N}_$]/u;
  const first = text.indexOf(symbol);
  for (let at = first; at !== -1; at = text.indexOf(symbol, at + 1)) {
    const before = at > 0 ? text[at - 1] ?? '' : '';
    const after = text[at + symbol.length] ?? '';
    const startsWord = !word.test(symbol[0] ?? '') || !word.test(before);
    const endsWord = !word.test(symbol[symbol.length - 1] ?? '') || !word.test(after);
    if (startsWord && endsWord) return at;
  }
  return first;
}

/** Delays between the attempts of a question a starting language service may answer empty (about 10 s in all). */
const RETRY_DELAYS_MS = [250, 500, 750, 1000, 1500, 2000, 2000, 2000];
/** Once a starting service answers, how long its answer must stay the same before it counts as final. */
const SETTLE_MS = 3000;
const SETTLE_POLL_MS = 1000;
/** Longest a question waits for a starting service, settling included. */
const HARD_CAP_MS = 20_000;

/** An answer, and whether the language service was still starting when asked (its first answer was empty). */
export interface Answered<T> {
  readonly answer: T;
  readonly warmedUp: boolean;
}

/**
 * Asks `ask` until its answer is not empty (`size` 0): a language service that has just started
 * (TypeScript's starts lazily, on the first document it sees) answers nothing until it is up, and
 * then, while it loads the project, answers from the open files only (TypeScript's syntax server).
 * So an answer that needed waiting for is asked again until its size has stayed the same for a
 * few seconds, and the latest one counts. Gives up (returning the empty answer) after `delays`
 * (about 10 s by default); stops at once when `signal` aborts.
 */
export async function askUntilAnswered<T>(ask: () => Thenable<T>, size: (answer: T) => number, signal?: AbortSignal, delays: readonly number[] = RETRY_DELAYS_MS): Promise<Answered<T>> {
  const started = Date.now();
  let answer = await ask();
  if (size(answer) > 0) return { answer, warmedUp: false };
  for (const delay of delays) {
    await sleep(delay, signal);
    if (isAborted(signal)) return { answer, warmedUp: true };
    answer = await ask();
    if (size(answer) > 0) break;
  }
  if (size(answer) === 0) return { answer, warmedUp: true };
  let changed = Date.now();
  while (Date.now() - changed < SETTLE_MS && Date.now() - started < HARD_CAP_MS) {
    await sleep(SETTLE_POLL_MS, signal);
    if (isAborted(signal)) break;
    const next = await ask();
    if (size(next) > 0 && size(next) !== size(answer)) {
      answer = next;
      changed = Date.now();
    }
  }
  return { answer, warmedUp: true };
}

/** Said after an answer the service gave while it was starting, which may lack what is outside the open files. */
export const WARMED_UP_NOTE = '\n(The language service was still starting when asked; while a large project loads, its answers can miss files. Ask again if something seems missing.)';

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      done();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Where a language service points: a `Location`, or the target of a `LocationLink`. */
export function targetOf(found: vscode.Location | vscode.LocationLink): vscode.Location {
  if ('targetUri' in found) return new vscode.Location(found.targetUri, found.targetSelectionRange ?? found.targetRange);
  return found;
}

/** True when `uri` is a file of a workspace folder. */
export function inWorkspace(uri: vscode.Uri): boolean {
  return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === uri.scheme && isInside(f.uri.fsPath, uri.fsPath));
}

/** How a location's file is named for the model: workspace-relative, or the absolute path (or URI) marked as outside. */
export function fileName(uri: vscode.Uri): string {
  if (uri.scheme !== 'file' && !inWorkspace(uri)) return `${uri.toString()} (outside the workspace)`;
  return inWorkspace(uri) ? labelOf(uri.fsPath) : `${uri.fsPath} (outside the workspace)`;
}

/** Reads the lines of files for the listing: from the open document when there is one (unsaved text), else from disk. */
export class LineReader {
  private readonly files = new Map<string, Promise<readonly string[]>>();

  async line(uri: vscode.Uri, line: number): Promise<string> {
    const key = uri.toString();
    let lines = this.files.get(key);
    if (lines === undefined) {
      lines = this.read(uri);
      this.files.set(key, lines);
    }
    const text = (await lines)[line] ?? '';
    const trimmed = text.trim();
    return trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)}…` : trimmed;
  }

  private async read(uri: vscode.Uri): Promise<readonly string[]> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open !== undefined) return open.getText().split(/\r?\n/);
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split(/\r?\n/);
    } catch {
      return [];
    }
  }
}

const MAX_LINE_CHARS = 200;
/** Most locations one answer lists; the header still counts them all. */
const MAX_LOCATIONS = 500;

/**
 * The listing of `locations` for the model: a header ("12 references in 4 files"), then one line
 * per location, `label:line:col  <line text>`, sorted by file then line, without duplicates.
 */
export async function listLocations(locations: readonly vscode.Location[], noun: string): Promise<string> {
  const seen = new Set<string>();
  const rows: { readonly file: string; readonly uri: vscode.Uri; readonly line: number; readonly col: number }[] = [];
  for (const loc of locations) {
    const key = `${loc.uri.toString()}:${loc.range.start.line}:${loc.range.start.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({ file: fileName(loc.uri), uri: loc.uri, line: loc.range.start.line, col: loc.range.start.character });
  }
  rows.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
  const files = new Set(rows.map((r) => r.file)).size;
  const header = `${plural(rows.length, noun)} in ${plural(files, 'file')}${rows.length > MAX_LOCATIONS ? ` (the first ${MAX_LOCATIONS} listed)` : ''}:`;
  const reader = new LineReader();
  const lines = await Promise.all(rows.slice(0, MAX_LOCATIONS).map(async (r) => `${positionText(r.file, r.line, r.col)}  ${await reader.line(r.uri, r.line)}`));
  return [header, ...lines].join('\n');
}

/** `label:line:col` (1-based), with the "outside the workspace" mark after the position. */
export function positionText(file: string, line: number, col: number): string {
  const mark = ' (outside the workspace)';
  return file.endsWith(mark) ? `${file.slice(0, -mark.length)}:${line + 1}:${col + 1}${mark}` : `${file}:${line + 1}:${col + 1}`;
}

export function plural(n: number, noun: string): string {
  return n === 1 ? `1 ${noun}` : `${n} ${noun}s`;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
