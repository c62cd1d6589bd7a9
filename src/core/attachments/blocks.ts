import { cutText, lastLineOf } from '../text/textCut';
import type { LineRange } from './attachment';

/** Longer attachments are cut, with a marker, at what tool results were cut at before they were kept whole. */
export const MAX_ATTACHMENT_CHARS = 100_000;

export type ProblemSeverity = 'error' | 'warning' | 'info' | 'hint';

export interface Problem {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly severity: ProblemSeverity;
  readonly message: string;
  readonly source: string | null;
  readonly code: string | null;
}

const ASK_FOR_MORE = 'Ask the user to attach the part you need as a selection.';

/** A code fence longer than any run of backticks in `content`, so the content cannot close it. */
function fenced(content: string, language: string): string {
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${content}${content.endsWith('\n') || content === '' ? '' : '\n'}${fence}`;
}

function lines(range: LineRange): string {
  return range.start === range.end ? `line ${range.start}` : `lines ${range.start}-${range.end}`;
}

export function selectionBlock(path: string, language: string, range: LineRange, content: string, max = MAX_ATTACHMENT_CHARS): string {
  const { text, cut } = cutText(content, max);
  const header = `Selection from ${path}, ${lines(range)} (${language}):`;
  const marker = cut === null ? '' : `\n[TRUNCATED: the selection was ${cut.totalChars} characters; only the first ${cut.keptChars} (up to line ${range.start + lastLineOf(text) - 1}) are shown and the remaining ${cut.totalChars - cut.keptChars} were cut. ${ASK_FOR_MORE}]`;
  return `${header}\n${fenced(text, language)}${marker}`;
}

/** The block for a whole file and the lines it holds (fewer than the file's when it was cut). */
export function fileBlock(path: string, language: string, content: string, max = MAX_ATTACHMENT_CHARS): { readonly text: string; readonly range: LineRange } {
  const { text, cut } = cutText(content, max);
  const total = content === '' ? 0 : lastLineOf(content.endsWith('\n') ? content.slice(0, -1) : content);
  const shown = cut === null ? total : lastLineOf(text);
  const lineCount = `${total} ${total === 1 ? 'line' : 'lines'}`;
  const header = `File ${path} (${language}, ${lineCount}):`;
  const marker = cut === null ? '' : `\n[TRUNCATED: ${path} is ${cut.totalChars} characters (${lineCount}); only the first ${cut.keptChars} (lines 1-${shown}) are shown and the remaining ${cut.totalChars - cut.keptChars} were cut. ${ASK_FOR_MORE}]`;
  return { text: `${header}\n${fenced(text, language)}${marker}`, range: { start: 1, end: Math.max(1, shown) } };
}

function problemLine(p: Problem): string {
  const origin = [p.source, p.code].filter((s): s is string => s !== null && s !== '').join(' ');
  return `${p.path}:${p.line}:${p.column} ${p.severity}${origin ? ` (${origin})` : ''}: ${p.message.replace(/\s*\n\s*/g, ' ')}`;
}

function tally(problems: readonly Problem[]): string {
  const order: readonly ProblemSeverity[] = ['error', 'warning', 'info', 'hint'];
  const parts = order.map((s) => [s, problems.filter((p) => p.severity === s).length] as const).filter(([, n]) => n > 0);
  return parts.map(([s, n]) => `${n} ${s === 'info' ? 'info' : n === 1 ? s : `${s}s`}`).join(', ');
}

/** One resource of an MCP server as the model reads it: where it came from, then its text, fenced. */
export function resourceBlock(server: string, uri: string, mimeType: string | undefined, content: string, max = MAX_ATTACHMENT_CHARS): string {
  const { text, cut } = cutText(content, max);
  const marker = cut === null ? '' : `\n[TRUNCATED: the resource was ${cut.totalChars} characters; only the first ${cut.keptChars} are shown and the remaining ${cut.totalChars - cut.keptChars} were cut.]`;
  return `Resource ${uri} from MCP server "${server}"${mimeType === undefined ? '' : ` (${mimeType})`}:\n${fenced(text, '')}${marker}`;
}

/** The problems (diagnostics) of one file, or of the workspace when `path` is null; errors first. */
export function problemsBlock(path: string | null, problems: readonly Problem[], max = MAX_ATTACHMENT_CHARS): string {
  const where = path ?? 'the workspace';
  if (problems.length === 0) return `Problems in ${where}: none reported.`;
  const rank: Record<ProblemSeverity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
  const sorted = [...problems].sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const { text, cut } = cutText(sorted.map(problemLine).join('\n'), max);
  const marker = cut === null ? '' : `\n[TRUNCATED: the list of ${problems.length} problems was ${cut.totalChars} characters; only the first ${cut.keptChars} are shown and the remaining ${cut.totalChars - cut.keptChars} were cut. Ask the user to attach the problems of one file.]`;
  return `Problems in ${where} (${tally(problems)}):\n${text}${marker}`;
}
