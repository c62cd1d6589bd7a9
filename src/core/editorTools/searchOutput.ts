import { REGEX_FIX } from './ripgrepArgs';

/**
 * Reading what ripgrep prints for editor__find_files and editor__search_text, and the text the
 * model gets back. Results are deterministic: the first lines by path, whatever order ripgrep's
 * threads finish in, while memory stays bounded by the cap.
 */

/** Counting stops here (ripgrep is stopped): a larger count says "more than". */
export const COUNT_LIMIT = 100_000;
/** Longest line text shown; a longer line is shown around its first match. */
export const PREVIEW_CHARS = 300;

export interface MatchLine {
  readonly line: number;
  readonly text: string;
}

export interface FileMatches {
  /** As ripgrep printed it, without a leading "./". */
  readonly path: string;
  readonly lines: MatchLine[];
}

export interface CollectedMatches {
  /** The first `cap` matching lines by path and line, grouped by file. */
  readonly files: readonly FileMatches[];
  /** Matching lines and files with a match, counted up to COUNT_LIMIT lines. */
  readonly matchCount: number;
  readonly fileCount: number;
  /** Counting stopped at COUNT_LIMIT: the counts are lower bounds. */
  readonly stopped: boolean;
}

interface RgText { readonly text?: string; readonly bytes?: string }
interface RgMessage {
  readonly type?: string;
  readonly data?: { readonly path?: RgText; readonly lines?: RgText; readonly line_number?: number; readonly submatches?: readonly { readonly start?: number }[] };
}

function decode(t: RgText | undefined): string {
  if (t?.text !== undefined) return t.text;
  return t?.bytes !== undefined ? Buffer.from(t.bytes, 'base64').toString('utf8') : '';
}

export const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A path ripgrep printed for the search root ".", as a relative path. */
export function stripDotSlash(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/** One line of text for the model: line ending dropped, a long line cut to PREVIEW_CHARS around its first match (at byte offset `matchByte`). */
export function previewLine(text: string, matchByte = 0, width = PREVIEW_CHARS): string {
  const line = text.replace(/\r?\n?$/, '');
  if (line.length <= width) return line;
  const at = Buffer.from(line, 'utf8').subarray(0, matchByte).toString('utf8').length;
  const from = Math.max(0, Math.min(at - Math.floor(width / 5), line.length - width));
  const to = from + width;
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}

/**
 * Reads `rg --json` line by line. ripgrep prints each file's messages together (begin, matches,
 * end), so a file whose path sorts after every kept one, once `cap` lines are kept, is only counted.
 */
export class MatchCollector {
  private kept: FileMatches[] = [];
  private keptLines = 0;
  /** Once `cap` lines are kept: the last kept path; later paths cannot be among the first. */
  private ceiling: string | undefined;
  private current: FileMatches | undefined;
  /** The current file is not one to count (see `accept`). */
  private skipping = false;
  private matches = 0;
  private files = 0;
  private stopped = false;

  /** `accept`: whether a file (its path as printed, without "./") counts at all. */
  constructor(private readonly cap: number, private readonly limit = COUNT_LIMIT, private readonly accept: (path: string) => boolean = () => true) {}

  /** Feeds one line of output; false once counting stopped (stop ripgrep then). */
  feed(line: string): boolean {
    if (this.stopped) return false;
    if (line.startsWith('{"type":"match"')) {
      if (this.skipping) return true;
      this.matches++;
      const group = this.current;
      if (group !== undefined && group.lines.length < this.cap) {
        const data = parse(line)?.data;
        if (data !== undefined) group.lines.push({ line: data.line_number ?? 0, text: previewLine(decode(data.lines), data.submatches?.[0]?.start ?? 0) });
      }
      if (this.matches >= this.limit) {
        this.stopped = true;
        this.close();
        return false;
      }
    } else if (line.startsWith('{"type":"begin"')) {
      this.close();
      const path = stripDotSlash(decode(parse(line)?.data?.path));
      this.skipping = !this.accept(path);
      if (this.skipping) return true;
      this.files++;
      this.current = this.ceiling !== undefined && path > this.ceiling ? undefined : { path, lines: [] };
    } else if (line.startsWith('{"type":"end"')) {
      this.close();
      this.skipping = false;
    }
    return true;
  }

  result(): CollectedMatches {
    this.close();
    this.prune();
    return { files: this.kept, matchCount: this.matches, fileCount: this.files, stopped: this.stopped };
  }

  private close(): void {
    const group = this.current;
    this.current = undefined;
    if (group === undefined || group.lines.length === 0) return;
    this.kept.push(group);
    this.keptLines += group.lines.length;
    if (this.keptLines >= 2 * this.cap) this.prune();
  }

  /** Keeps the first `cap` lines by path. */
  private prune(): void {
    this.kept.sort((a, b) => byPath(a.path, b.path));
    let lines = 0;
    const kept: FileMatches[] = [];
    for (const group of this.kept) {
      if (lines >= this.cap) break;
      const room = this.cap - lines;
      kept.push(group.lines.length > room ? { path: group.path, lines: group.lines.slice(0, room) } : group);
      lines += Math.min(room, group.lines.length);
    }
    this.kept = kept;
    this.keptLines = lines;
    if (lines >= this.cap) this.ceiling = kept[kept.length - 1]?.path;
  }
}

function parse(line: string): RgMessage | undefined {
  try {
    return JSON.parse(line) as RgMessage;
  } catch {
    return undefined;
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** What a search leaves out besides the model's own globs, for a "nothing found" answer. */
export function leftOutText(excludes: readonly string[], useIgnoreFiles: boolean): string {
  const parts = [useIgnoreFiles ? 'files ignored by .gitignore (and .ignore)' : '', excludes.length > 0 ? `files.exclude and search.exclude (${excludes.join(', ')})` : '', '.git folders'];
  return parts.filter((p) => p.length > 0).join(', ');
}

export interface FileListAnswer {
  readonly pattern: string;
  /** Sorted labels, all that matched (up to COUNT_LIMIT). */
  readonly paths: readonly string[];
  readonly max: number;
  readonly stopped: boolean;
  readonly leftOut: string;
}

export function formatFileList(a: FileListAnswer): string {
  const pattern = JSON.stringify(a.pattern);
  if (a.paths.length === 0) {
    const anchored = a.pattern.includes('/') && !a.pattern.startsWith('**') ? ` A glob with "/" is matched from the workspace folder: use "**/${a.pattern.replace(/^\/+/, '')}" to match at any depth.` : '';
    const folder = /[*?[{]/.test(a.pattern) ? '' : ` To list a folder's files, use "${a.pattern.replace(/\/+$/, '')}/**".`;
    return `No file matches ${pattern}. Left out: ${a.leftOut}.${anchored}${folder}`;
  }
  const count = a.stopped ? `More than ${plural(a.paths.length, 'file')} match ${pattern}` : `${plural(a.paths.length, 'file')} ${a.paths.length === 1 ? 'matches' : 'match'} ${pattern}`;
  const cut = a.paths.length > a.max ? ` (showing the first ${a.max} by path: narrow the pattern or raise max_results)` : '';
  return `${count}${cut}:\n${a.paths.slice(0, a.max).join('\n')}`;
}

export interface SearchAnswer {
  readonly query: string;
  readonly isRegex: boolean;
  readonly caseSensitive: boolean;
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  /** Files in path order with the label to show, at most `max` lines in all. */
  readonly files: readonly { readonly label: string; readonly lines: readonly MatchLine[] }[];
  readonly matchCount: number;
  readonly fileCount: number;
  readonly stopped: boolean;
  readonly max: number;
  readonly leftOut: string;
}

export function formatSearch(a: SearchAnswer): string {
  const how = `${a.isRegex ? 'regular expression' : 'literal text'}, ${a.caseSensitive ? 'case-sensitive' : 'ignoring case'}`;
  if (a.matchCount === 0) {
    const where = a.include.length > 0 ? `files matching ${a.include.map((g) => JSON.stringify(g)).join(', ')}` : 'the workspace';
    const except = a.exclude.length > 0 ? `, except ${a.exclude.map((g) => JSON.stringify(g)).join(', ')}` : '';
    const folderTip = a.include.some((g) => !/[*?[{]/.test(g)) ? ' To search a folder, include "<folder>/**".' : '';
    return `No match for ${JSON.stringify(a.query)} (${how}) in ${where}${except}. Left out as well: ${a.leftOut}.${folderTip}`;
  }
  const shown = a.files.reduce((n, f) => n + f.lines.length, 0);
  const head = `${a.stopped ? 'More than ' : ''}${plural(a.matchCount, 'match', 'matches')} in ${a.stopped ? 'at least ' : ''}${plural(a.fileCount, 'file')}`;
  const cut = shown < a.matchCount ? ` (showing the first ${shown}: narrow the query, include or exclude, or raise max_results)` : '';
  const body = a.files.flatMap((f) => f.lines.map((l) => `${f.label}:${l.line}: ${l.text}`));
  return `${head}${cut}:\n${body.join('\n')}`;
}

/** ripgrep's error output, without its "rg: " prefixes, shortened. */
function quoted(stderr: string): string {
  const text = stderr.split('\n').map((l) => l.replace(/^rg: /, '')).join('\n').trim();
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
}

/**
 * The error result for a run that failed on the model's input (exit 2 with a regex or glob error),
 * or undefined when ripgrep's complaints are about files (unreadable ones) and the results stand.
 */
export function ripgrepFailure(stderr: string, query?: string): string | undefined {
  if (/regex parse error|regex could not be compiled|PCRE2: error|compiled regex exceeds/.test(stderr)) {
    const which = query === undefined ? 'The regular expression' : `The regular expression ${JSON.stringify(query)}`;
    return `${which} is not valid. ripgrep says:\n${quoted(stderr)}\n${REGEX_FIX}`;
  }
  if (/error parsing glob/.test(stderr)) {
    return `A glob is not valid. ripgrep says:\n${quoted(stderr)}\nFix the glob (pattern, include or exclude): close every "{" and "[", or match a special character literally with brackets, e.g. "[{]".`;
  }
  return undefined;
}
