import { headOf } from '../text/textCut';
import type { ToolCallResult } from '../tools/toolSource';
import { counted, n, span } from './cut';
import type { ReadRequest } from './readRequest';

/** A line longer than this is shown around what grep found in it, not whole. */
const LONG_LINE = 400;
/** Characters shown on each side of a match inside a long line. */
const AROUND = 150;
/** Room an answer's opening line needs beside what it shows, besides the grep text it quotes (twice at most). */
const OPENING_ROOM = 400;

const answer = (text: string, isError = false): ToolCallResult => ({ content: [{ type: 'text', text }], isError });

/** A line as a grep answer shows it: whole, or for a long one the part around the match (or its start, for a context line). */
function clipped(line: string, needle: string | undefined): string {
  if (line.length <= LONG_LINE) return line;
  const at = needle === undefined ? -1 : line.toLowerCase().indexOf(needle);
  if (needle === undefined || at < 0) return `${headOf(line, 2 * AROUND)}… (${n(line.length)} characters)`;
  const from = Math.max(0, at - AROUND);
  const to = Math.min(line.length, at + needle.length + AROUND);
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''} (characters ${span(from + 1, to)} of ${n(line.length)})`;
}

/** The lines that contain the text, each with its number and `context` lines around it (grep -n style: `12:` found, `13-` around). */
function grepLines(ref: string, lines: readonly string[], request: ReadRequest & { readonly grep: string }, room: number): ToolCallResult {
  const needle = request.grep.toLowerCase();
  const from = request.offset - 1;
  const matches: number[] = [];
  for (let i = from; i < lines.length; i++) if ((lines[i] as string).toLowerCase().includes(needle)) matches.push(i);
  const where = request.offset > 1 ? ` from line ${n(request.offset)} on` : '';
  const quoted = JSON.stringify(request.grep);
  if (matches.length === 0) {
    const before = request.offset > 1 ? ` (lines before ${n(request.offset)} were not searched)` : '';
    return answer(`[${ref}: no line${where} contains ${quoted} (case-insensitive; ${counted(lines.length, 'line')} in all${before}). ${ref} is kept whole, so the text is not in that part of the result.]`);
  }
  const blocks: string[] = [];
  let used = 0;
  let shown = 0;
  let lastShownLine = -1;
  for (const m of matches) {
    if (m <= lastShownLine) {
      shown++;
      continue;
    }
    const start = Math.max(m - request.context, lastShownLine + 1, from);
    const end = Math.min(lines.length - 1, m + request.context);
    const found = new Set(matches.filter((x) => x >= start && x <= end));
    const block = Array.from({ length: end - start + 1 }, (_, k) => start + k)
      .map((i) => `${i + 1}${found.has(i) ? ':' : '-'} ${clipped(lines[i] as string, found.has(i) ? needle : undefined)}`)
      .join('\n');
    const separator = blocks.length > 0 && start > lastShownLine + 1 ? '--\n' : '';
    if (used + separator.length + block.length + 1 > room && blocks.length > 0) break;
    blocks.push(`${separator}${block}`);
    used += separator.length + block.length + 1;
    lastShownLine = end;
    shown++;
  }
  const rest = matches.find((m) => m > lastShownLine);
  const more = rest === undefined
    ? 'all of them are shown'
    : `shown: the first ${n(shown)}; for the rest call read_result with {"ref": "${ref}", "grep": ${quoted}, "offset": ${rest + 1}}`;
  const body = headOf(blocks.join('\n'), room);
  return answer(`[${ref}: ${counted(matches.length, 'line')}${where} contain${matches.length === 1 ? 's' : ''} ${quoted} (case-insensitive; ${counted(lines.length, 'line')} in all); ${more}.]\n${body}`);
}

function readLines(ref: string, lines: readonly string[], request: ReadRequest, room: number): ToolCallResult {
  const first = request.offset - 1;
  if (first >= lines.length) return answer(`read_result: ${ref} has ${counted(lines.length, 'line')}; offset ${n(request.offset)} is past its end.`, true);
  const wanted = Math.min(lines.length, first + (request.length ?? lines.length));
  let end = first;
  for (let used = 0; end < wanted && used + (lines[end] as string).length + 1 <= room; end++) used += (lines[end] as string).length + 1;
  if (end === first) {
    // One line longer than the answer can hold: its start, and where to read on by character.
    const line = lines[first] as string;
    const part = headOf(line, room);
    const lineStart = lines.slice(0, first).reduce((sum, l) => sum + l.length + 1, 0);
    return answer(`[${ref}: line ${n(first + 1)} of ${n(lines.length)} is ${n(line.length)} characters long; its first ${n(part.length)} follow. To read on call read_result with {"ref": "${ref}", "unit": "characters", "offset": ${lineStart + part.length + 1}}.]\n${part}`);
  }
  const next = end < lines.length ? `; the next line is ${n(end + 1)}` : '; that is the end of the result';
  const bounded = end < wanted ? ' (as many as fit in one answer)' : '';
  return answer(`[${ref}: lines ${span(first + 1, end)} of ${n(lines.length)}${bounded}${next}.]\n${lines.slice(first, end).join('\n')}`);
}

function readCharacters(ref: string, text: string, request: ReadRequest, room: number): ToolCallResult {
  const first = request.offset - 1;
  if (first >= text.length) return answer(`read_result: ${ref} has ${counted(text.length, 'character')}; offset ${n(request.offset)} is past its end.`, true);
  const part = headOf(text.slice(first, first + Math.min(request.length ?? text.length, room)), room);
  const end = first + part.length;
  const next = end < text.length ? `; the next is ${n(end + 1)}` : '; that is the end of the result';
  return answer(`[${ref}: characters ${span(first + 1, end)} of ${n(text.length)}${next}.]\n${part}`);
}

/**
 * read_result's answer from a kept result's text (resultText), within `budgetChars`: the lines
 * grep finds, or the lines or characters asked for. Each answer opens with a line saying what
 * it holds and where to read on; a grep that finds nothing says the text is not there, which a
 * kept result can say for sure.
 */
export function readKept(ref: string, text: string, request: ReadRequest, budgetChars: number): ToolCallResult {
  const quoted = request.grep === undefined ? 0 : 2 * JSON.stringify(request.grep).length;
  const room = Math.max(1, budgetChars - OPENING_ROOM - quoted);
  if (request.unit === 'characters') return readCharacters(ref, text, request, room);
  const lines = text.split('\n');
  return request.grep !== undefined ? grepLines(ref, lines, { ...request, grep: request.grep }, room) : readLines(ref, lines, request, room);
}
