/* eslint-disable no-control-regex -- terminal escape sequences are control characters: matching them is this file's job */
import type { CallProgress } from '../elicitation/elicitation';
import { cutText } from '../text/textCut';

/**
 * The pure half of `editor__run_command`: what a terminal wrote, cleaned into the text a model
 * reads, and the result text around it. The terminal glue is src/extension/editorTools/runCommand.ts.
 */

/** Most characters of output a result carries; the turn loop shortens long results itself and keeps the whole by reference. */
export const MAX_COMMAND_OUTPUT = 2_000_000;

// OSC (ESC ] … BEL or ESC \), VS Code's shell-integration marks (OSC 633) among them.
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
// DCS, SOS, PM and APC strings (ESC P / X / ^ / _ … ESC \).
const STRING_SEQ = /\x1b[PX^_][^\x1b]*\x1b\\/g;
// CSI: ESC [ parameters, intermediates, final byte (colours, cursor moves, erases…); also the 8-bit CSI.
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
// The other escapes: ESC with intermediates (charset selection, `ESC ( B`) or a single final byte (`ESC =`, `ESC M`).
const OTHER_ESC = /\x1b[ -/]*[0-~]/g;
// An escape sequence cut off at the end of the text (a chunk that ends mid-sequence).
const UNFINISHED = /\x1b(?:\][^\x07\x1b]*|\[[0-?]*[ -/]*|[PX^_][^\x1b]*|[ -/]*)?$/;
// Control characters other than tab, newline, carriage return and backspace.
const CONTROLS = /[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

/**
 * What a terminal wrote, as text: escape sequences removed (colours, cursor moves, OSC marks such
 * as VS Code's shell-integration 633 sequences), `\r\n` as `\n`, a line rewritten with carriage
 * returns (a progress bar) kept in its last state, backspaces applied, other control characters dropped.
 */
export function cleanTerminalOutput(raw: string): string {
  const stripped = raw
    .replace(OSC, '')
    .replace(STRING_SEQ, '')
    .replace(UNFINISHED, '')
    .replace(CSI, '')
    .replace(OTHER_ESC, '')
    .replace(/\x1b/g, '')
    .replace(CONTROLS, '');
  return stripped.replace(/\r+\n/g, '\n').split('\n').map(lastStateOf).join('\n');
}

/** A line as it last stood: the last non-empty piece after its carriage returns, with backspaces applied. */
function lastStateOf(line: string): string {
  let text = line;
  if (text.includes('\r')) {
    text = lastOf(text.split('\r'), (p) => p !== '') ?? '';
  }
  if (!text.includes('\b')) return text;
  const kept: string[] = [];
  for (const ch of text) {
    if (ch === '\b') kept.pop();
    else kept.push(ch);
  }
  return kept.join('');
}

/** The last non-empty line of `raw` once cleaned, at most `max` characters (for the live progress of a running command). */
export function lastOutputLine(raw: string, max = 200): string | undefined {
  const tailStart = Math.max(0, raw.length - 8192);
  const lines = cleanTerminalOutput(raw.slice(tailStart)).split('\n');
  // A tail that starts mid-text starts mid-line (maybe mid-sequence): its first line is not whole.
  if (tailStart > 0 && lines.length > 1) lines.shift();
  const last = lastOf(lines.map((l) => l.trim()), (l) => l !== '');
  if (last === undefined) return undefined;
  return last.length <= max ? last : `${last.slice(0, max - 1)}…`;
}

function lastOf<T>(items: readonly T[], wanted: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as T;
    if (wanted(item)) return item;
  }
  return undefined;
}

/**
 * What a running command wrote, kept for its result (raw, up to `maxRaw` characters: escape
 * sequences make it longer than what a result carries), with its last line reported as progress
 * at most every `everyMs` (the last state always reported, an unchanged one never twice).
 */
export class CommandOutput {
  raw = '';
  /** Raw characters written past `maxRaw`, not kept. */
  droppedChars = 0;
  private tail = '';
  /** Lines of output so far: what the card's progress counts (a character count means nothing to a reader). */
  private lines = 0;
  private lastReport = 0;
  private reported: { lines: number; message: string | undefined } = { lines: 0, message: undefined };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done = false;

  constructor(private readonly onProgress?: (progress: CallProgress) => void, private readonly everyMs = 250, private readonly maxRaw = 4 * MAX_COMMAND_OUTPUT) {}

  push(chunk: string): void {
    if (this.done) return;
    for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) this.lines++;
    const room = this.maxRaw - this.raw.length;
    if (chunk.length <= room) this.raw += chunk;
    else {
      this.raw += chunk.slice(0, room);
      this.droppedChars += chunk.length - room;
    }
    this.tail = (this.tail + chunk).slice(-8192);
    if (this.onProgress === undefined || this.timer !== undefined) return;
    const wait = this.lastReport + this.everyMs - Date.now();
    if (wait <= 0) this.report();
    else this.timer = setTimeout(() => this.report(), wait);
  }

  /** No more output is kept or reported. */
  finish(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  private report(): void {
    this.timer = undefined;
    this.lastReport = Date.now();
    const message = lastOutputLine(this.tail);
    if (this.done || (this.lines === this.reported.lines && message === this.reported.message)) return;
    this.reported = { lines: this.lines, message };
    this.onProgress?.({ progress: this.lines, total: undefined, message: message === undefined ? undefined : `${this.lines} line${this.lines === 1 ? '' : 's'} · ${message}` });
  }
}

/** How a command ended. */
export type CommandEnding =
  | { readonly kind: 'exit'; readonly code: number | undefined }
  | { readonly kind: 'timeout'; readonly seconds: number }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'closed' };

export interface CommandReport {
  readonly command: string;
  /** The working folder as the model names it (workspace-relative, `.` for the workspace folder). */
  readonly cwdLabel: string;
  /** The output as the terminal wrote it, escape sequences included. */
  readonly rawOutput: string;
  /** Raw characters not kept while it ran (beyond what a result can carry anyway). */
  readonly droppedChars?: number;
  readonly ending: CommandEnding;
}

/**
 * The result text of a command for the model: `$ <command>` with its folder, the cleaned output,
 * and a last line saying how it ended. An error when it exited non-zero or timed out.
 */
export function commandResultText(report: CommandReport, max = MAX_COMMAND_OUTPUT): { readonly text: string; readonly isError: boolean } {
  const cleaned = cleanTerminalOutput(report.rawOutput).replace(/\n+$/, '');
  const { text: output, cut } = cutText(cleaned, max);
  const dropped = report.droppedChars ?? 0;
  const lines = [`$ ${report.command}    (in ${report.cwdLabel})`];
  lines.push(output === '' ? '(no output)' : output);
  if (cut !== null || dropped > 0) {
    const left = (cut === null ? 0 : cut.totalChars - cut.keptChars) + dropped;
    lines.push(`[output cut here: the first ${(cut?.keptChars ?? cleaned.length).toLocaleString('en-US')} characters are shown; ${dropped > 0 ? 'about ' : ''}${left.toLocaleString('en-US')} more were left out]`);
  }
  lines.push(endingLine(report.ending));
  const isError = (report.ending.kind === 'exit' && report.ending.code !== undefined && report.ending.code !== 0) || report.ending.kind === 'timeout';
  return { text: lines.join('\n'), isError };
}

function endingLine(ending: CommandEnding): string {
  switch (ending.kind) {
    case 'exit':
      return ending.code === undefined ? '[exit code unknown: the shell did not report it]' : `[exit code ${ending.code}]`;
    case 'timeout':
      return `[stopped after ${ending.seconds} s: timed out]`;
    case 'stopped':
      return '[stopped by the user]';
    case 'closed':
      return '[stopped: the user closed the terminal]';
  }
}
