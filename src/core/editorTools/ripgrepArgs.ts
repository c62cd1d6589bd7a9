import type { EditorInput } from './schemas';

/**
 * The arguments of the ripgrep runs behind editor__find_files and editor__search_text, built the
 * way VS Code's own search builds them (ripgrepFileSearch.ts, ripgrepTextSearchEngine.ts), so the
 * tools see the files the Search view sees. Globs the model writes follow ripgrep's (gitignore's)
 * rules: one without "/" matches at any depth, one with "/" is taken from the workspace folder.
 */

/** What the settings of one workspace folder leave out of a search. */
export interface SearchScope {
  /** The globs of files.exclude and search.exclude that are on (VS Code glob syntax, from the folder). */
  readonly excludes: readonly string[];
  /** search.useIgnoreFiles: .gitignore, .ignore and .rgignore are honoured (default true). */
  readonly useIgnoreFiles: boolean;
  /** search.useParentIgnoreFiles: ignore files above the folder count too (default false). */
  readonly useParentIgnoreFiles: boolean;
  /** search.useGlobalIgnoreFiles: the user's global gitignore counts (default false). */
  readonly useGlobalIgnoreFiles: boolean;
  /** search.followSymlinks (default true). */
  readonly followSymlinks: boolean;
}

export const DEFAULT_SCOPE: SearchScope = { excludes: [], useIgnoreFiles: true, useParentIgnoreFiles: false, useGlobalIgnoreFiles: false, followSymlinks: true };
export const DEFAULT_MAX_RESULTS = 200;
/** Always left out, whatever files.exclude says. */
export const ALWAYS_EXCLUDED = '**/.git';

type SearchTextInput = EditorInput<'search_text'>;

/** The globs of an exclude setting (`files.exclude`, `search.exclude`) that are on; `when` clauses are skipped. */
export function enabledGlobs(setting: unknown): string[] {
  if (typeof setting !== 'object' || setting === null) return [];
  return Object.entries(setting).filter(([glob, on]) => on === true && glob.length > 0).map(([glob]) => glob);
}

/** A VS Code setting glob as ripgrep reads it: anchored at the folder unless it starts with `**` or `/` (as VS Code does). */
export function anchorGlob(glob: string): string {
  return glob.startsWith('**') || glob.startsWith('/') ? glob : `/${glob}`;
}

/** A comma-separated list of globs (as the Search view takes them), split outside braces; empty parts dropped. */
export function splitGlobs(list: string | undefined): string[] {
  if (list === undefined) return [];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= list.length; i++) {
    const c = list[i];
    if (c === '{') depth++;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (i === list.length || (c === ',' && depth === 0)) {
      const part = list.slice(start, i).trim();
      if (part.length > 0) parts.push(part);
      start = i + 1;
    }
  }
  return parts;
}

/**
 * The globs for one folder of a multi-root workspace: one that starts with a folder's name applies
 * to that folder only (without the name). Null when the globs name only other folders.
 */
export function folderGlobs(globs: readonly string[], folder: string, folders: readonly string[]): string[] | null {
  if (folders.length < 2) return [...globs];
  const kept: string[] = [];
  for (const glob of globs) {
    const named = folders.find((f) => glob.startsWith(`${f}/`));
    if (named === undefined) kept.push(glob);
    else if (named === folder) kept.push(glob.slice(named.length + 1));
  }
  return kept.length === 0 && globs.length > 0 ? null : kept;
}

function scopeArgs(scope: SearchScope): string[] {
  const args = ['--hidden', '--no-require-git', '--no-config'];
  if (!scope.useIgnoreFiles) args.push('--no-ignore');
  else if (!scope.useParentIgnoreFiles) args.push('--no-ignore-parent');
  if (!scope.useGlobalIgnoreFiles) args.push('--no-ignore-global');
  if (scope.followSymlinks) args.push('--follow');
  // Later globs win in ripgrep: these come last so nothing brings an excluded file back.
  for (const glob of [ALWAYS_EXCLUDED, ...scope.excludes]) args.push('-g', `!${anchorGlob(glob)}`);
  return args;
}

/*
 * The include globs (find_files' pattern, search_text's include) are not `-g` arguments: a `-g`
 * glob overrides every ignore rule, so `-g '*.log'` would bring back the .log files .gitignore
 * leaves out. They go in an ignore file instead (`--ignore-file`, the lowest precedence: "leave out
 * everything but these"), and includeMatcher checks each path again, for the file a `!` rule of a
 * .gitignore whitelists.
 */

/** The ignore file for include globs: everything left out but folders and what the globs match; undefined for no globs. */
export function includeRules(globs: readonly string[]): string | undefined {
  if (globs.length === 0) return undefined;
  return ['*', '!*/', ...globs.map((g) => `!${g.startsWith('#') ? `\\${g}` : g}`)].join('\n') + '\n';
}

/** `rg --files` for find_files: every file of the folder, only those the include file lets through when given. */
export function findFilesArgs(scope: SearchScope, includeFile?: string): string[] {
  return ['--files', ...(includeFile === undefined ? [] : ['--ignore-file', includeFile]), ...scopeArgs(scope), '--', '.'];
}

/** The include and exclude globs of one search, as lists (for one folder: see folderGlobs). */
export interface SearchGlobs {
  readonly include: readonly string[];
  readonly exclude: readonly string[];
}

export function searchGlobs(input: SearchTextInput): SearchGlobs {
  return { include: splitGlobs(input.include), exclude: splitGlobs(input.exclude).map((g) => g.replace(/^!+/, '')).filter((g) => g.length > 0) };
}

/** `rg --json` for search_text in one folder: `exclude` as `-g !glob`, the include globs in `includeFile` (see includeRules). */
export function searchTextArgs(input: SearchTextInput, scope: SearchScope, options: { readonly exclude?: readonly string[]; readonly includeFile?: string } = {}): string[] {
  const args = ['--json', input.case_sensitive === true ? '--case-sensitive' : '--ignore-case'];
  if (options.includeFile !== undefined) args.push('--ignore-file', options.includeFile);
  for (const g of options.exclude ?? searchGlobs(input).exclude) args.push('-g', `!${g}`);
  args.push(...scopeArgs(scope));
  // --engine auto: lookaround and backreferences work too (PCRE2 where the default engine cannot).
  if (input.is_regex === true) args.push('--crlf', '--engine', 'auto');
  else args.push('--fixed-strings');
  // --regexp: a query that starts with "-" is still the query.
  args.push('--regexp', input.query, '--', '.');
  return args;
}

/**
 * Whether a path (relative to the folder, "/"-separated) matches one of the globs, as ripgrep
 * matches gitignore globs: one without "/" matches the name at any depth, one with "/" the path
 * from the folder; `*` and `?` stay within a name, `**` crosses folders; `[...]` and `{a,b}`; a
 * glob that ends with "/" names folders only, so no file. True for every path when there are no globs.
 */
export function includeMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => true;
  const patterns = globs.map(globRegExp);
  return (path) => patterns.some((p) => p.test(path));
}

const NEVER = /(?!)/;

function globRegExp(glob: string): RegExp {
  if (glob.endsWith('/')) return NEVER;
  const anchored = glob.includes('/');
  const g = glob.replace(/^\/+/, '');
  let re = '';
  let braces = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g[i] ?? '';
    if (c === '*' && g[i + 1] === '*' && (i === 0 || g[i - 1] === '/') && (g[i + 2] === '/' || i + 2 === g.length)) {
      re += g[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += 2;
    } else if (c === '*') {
      re += '[^/]*';
      while (g[i + 1] === '*') i++;
    } else if (c === '?') re += '[^/]';
    else if (c === '[' && g.indexOf(']', i + 2) > 0) {
      const close = g.indexOf(']', i + 2);
      const body = g.slice(i + 1, close).replace(/^[!^]/, '^').replace(/\\/g, '\\\\');
      re += `[${body}]`;
      i = close;
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else if (c === '\\' && i + 1 < g.length) re += escapeChar(g[++i] ?? '');
    else re += escapeChar(c);
  }
  re += ')'.repeat(braces);
  try {
    return new RegExp(anchored ? `^${re}$` : `(?:^|/)${re}$`);
  } catch {
    return NEVER;
  }
}

const escapeChar = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A glob the model wrote, for `vscode.workspace.findFiles` (the fallback), with ripgrep's meaning kept. */
export function fallbackGlob(glob: string): string {
  if (glob.startsWith('/')) return glob.slice(1);
  return glob.includes('/') ? glob : `**/${glob}`;
}

/** Several globs as one VS Code glob (`{a,b}`), or undefined for none. */
export function joinGlobs(globs: readonly string[]): string | undefined {
  if (globs.length === 0) return undefined;
  return globs.length === 1 ? globs[0] : `{${globs.join(',')}}`;
}

/** The query as a JavaScript RegExp for the fallback search, or the message for the model when it is not a valid one. */
export function queryRegExp(input: SearchTextInput): RegExp | string {
  const source = input.is_regex === true ? input.query : input.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, input.case_sensitive === true ? '' : 'i');
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return `The regular expression ${JSON.stringify(input.query)} is not valid: ${why}. ${REGEX_FIX}`;
  }
}

export const REGEX_FIX = 'Escape the special character with a backslash (e.g. "\\(" for a literal "("), or set is_regex to false to search for the text as written.';
