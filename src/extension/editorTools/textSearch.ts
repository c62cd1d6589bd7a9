import { join, sep } from 'node:path';
import * as vscode from 'vscode';
import {
  ALWAYS_EXCLUDED, COUNT_LIMIT, DEFAULT_MAX_RESULTS, MatchCollector, byPath, fallbackGlob, findFilesArgs, folderGlobs, formatFileList, formatSearch, includeMatcher, includeRules,
  joinGlobs, leftOutText, previewLine, queryRegExp, ripgrepFailure, searchGlobs, searchTextArgs, splitGlobs, stripDotSlash,
  type EditorInput, type MatchLine, type SearchGlobs, type SearchScope,
} from '../../core/editorTools';
import type { ToolCallResult } from '../../core/tools';
import { textResult, type HandlerContext, type ReadHandler } from './handler';
import { ripgrepPath, runRipgrep, searchScope, withIncludeFile } from './ripgrep';
import { labelOf } from './workspacePaths';

/**
 * editor__find_files and editor__search_text: VS Code's own ripgrep, run in each workspace folder
 * with the settings the Search view honours (files.exclude, search.exclude, .gitignore through
 * search.useIgnoreFiles). Where this editor has no ripgrep, a small fallback on the workspace API.
 */

const NO_FOLDER = 'No folder is open in the editor, so there is no workspace to search. Ask the user to open one.';
const STOPPED = 'The search was stopped before it finished.';
/** The fallback leaves out files larger than this, as ripgrep-less search would take too long on them. */
const FALLBACK_MAX_BYTES = 2 * 1024 * 1024;
const BINARY_PROBE_BYTES = 8 * 1024;

/** A path ripgrep printed, with "/" between names as globs have them. */
const slashed = (path: string): string => (sep === '\\' ? path.replaceAll('\\', '/') : path);

type Found = { readonly label: string; readonly lines: readonly MatchLine[] };

interface Workspace {
  readonly folders: readonly vscode.WorkspaceFolder[];
  readonly names: readonly string[];
  readonly scopes: readonly SearchScope[];
  readonly leftOut: string;
}

function workspace(): Workspace | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return undefined;
  const scopes = folders.map((f) => searchScope(f.uri));
  const leftOut = leftOutText([...new Set(scopes.flatMap((s) => s.excludes))], scopes.some((s) => s.useIgnoreFiles));
  return { folders, names: folders.map((f) => f.name), scopes, leftOut };
}

let fallbackWarned = false;

/** VS Code's ripgrep, or undefined (logged once) when the fallback must do. */
async function ripgrep(ctx: HandlerContext): Promise<string | undefined> {
  const rg = await ripgrepPath();
  if (rg === undefined && !fallbackWarned) {
    fallbackWarned = true;
    ctx.log.warn(`No ripgrep binary under ${vscode.env.appRoot}: editor__find_files and editor__search_text use the slower workspace API instead (no .gitignore, files over 2 MB skipped).`);
  }
  return rg;
}

/** The handler, with an unexpected failure (a temporary file that cannot be written, a glob the workspace API refuses) as an error result. */
function guarded<N extends 'find_files' | 'search_text'>(handler: ReadHandler<N>): ReadHandler<N> {
  return async (input, ctx) => {
    try {
      return await handler(input, ctx);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      ctx.log.error(`editor search failed: ${message}`);
      return textResult(`The search failed: ${message}`, true);
    }
  };
}

export const findFiles: ReadHandler<'find_files'> = guarded(async (input, ctx) => {
  const ws = workspace();
  if (ws === undefined) return textResult(NO_FOLDER, true);
  const globs = splitGlobs(input.pattern);
  const rg = await ripgrep(ctx);
  const found = rg === undefined ? await fallbackFindFiles(globs, ws, ctx) : await rgFindFiles(rg, globs, ws, ctx);
  if (!('paths' in found)) return found;
  const paths = [...found.paths].sort(byPath);
  return textResult(formatFileList({ pattern: input.pattern, paths, max: input.max_results ?? DEFAULT_MAX_RESULTS, stopped: found.stopped, leftOut: ws.leftOut }));
});

type FileList = { readonly paths: readonly string[]; readonly stopped: boolean } | ToolCallResult;

async function rgFindFiles(rg: string, globs: readonly string[], ws: Workspace, ctx: HandlerContext): Promise<FileList> {
  const paths: string[] = [];
  let stopped = false;
  for (const [i, folder] of ws.folders.entries()) {
    const own = folderGlobs(globs, folder.name, ws.names);
    const scope = ws.scopes[i];
    if (own === null || scope === undefined) continue;
    const root = folder.uri.fsPath;
    const included = includeMatcher(own);
    const run = await withIncludeFile(includeRules(own), (file) => runRipgrep(rg, findFilesArgs(scope, file), root, ctx.signal, (line) => {
      const rel = stripDotSlash(line);
      if (rel.length > 0 && included(slashed(rel))) paths.push(labelOf(join(root, rel), ws.folders));
      stopped = paths.length >= COUNT_LIMIT;
      return !stopped;
    }));
    if (ctx.signal.aborted) return textResult(STOPPED, true);
    const failure = failureOf(run, ctx);
    if (failure !== undefined) return failure;
    if (stopped) break;
  }
  return { paths, stopped };
}

export const searchText: ReadHandler<'search_text'> = guarded(async (input, ctx) => {
  const ws = workspace();
  if (ws === undefined) return textResult(NO_FOLDER, true);
  const globs = searchGlobs(input);
  const max = input.max_results ?? DEFAULT_MAX_RESULTS;
  const rg = await ripgrep(ctx);
  const found = rg === undefined ? await fallbackSearch(input, globs, max, ws, ctx) : await rgSearch(rg, input, globs, max, ws, ctx);
  if (!('files' in found)) return found;
  return textResult(formatSearch({
    query: input.query, isRegex: input.is_regex === true, caseSensitive: input.case_sensitive === true, include: globs.include, exclude: globs.exclude,
    files: firstLines(found.files, max), matchCount: found.matchCount, fileCount: found.fileCount, stopped: found.stopped, max, leftOut: ws.leftOut,
  }));
});

type Matches = { readonly files: readonly Found[]; readonly matchCount: number; readonly fileCount: number; readonly stopped: boolean } | ToolCallResult;

async function rgSearch(rg: string, input: EditorInput<'search_text'>, globs: SearchGlobs, max: number, ws: Workspace, ctx: HandlerContext): Promise<Matches> {
  const files: Found[] = [];
  let matchCount = 0;
  let fileCount = 0;
  let stopped = false;
  for (const [i, folder] of ws.folders.entries()) {
    const include = folderGlobs(globs.include, folder.name, ws.names);
    const scope = ws.scopes[i];
    if (include === null || scope === undefined) continue;
    const exclude = folderGlobs(globs.exclude, folder.name, ws.names) ?? [];
    const included = includeMatcher(include);
    const collector = new MatchCollector(max, COUNT_LIMIT - matchCount, (path) => included(slashed(path)));
    const root = folder.uri.fsPath;
    const run = await withIncludeFile(includeRules(include), (file) => runRipgrep(rg, searchTextArgs(input, scope, { exclude, includeFile: file }), root, ctx.signal, (line) => collector.feed(line)));
    if (ctx.signal.aborted) return textResult(STOPPED, true);
    const failure = failureOf(run, ctx, input.query);
    if (failure !== undefined) return failure;
    const r = collector.result();
    matchCount += r.matchCount;
    fileCount += r.fileCount;
    for (const f of r.files) files.push({ label: labelOf(join(root, f.path), ws.folders), lines: f.lines });
    if (r.stopped) {
      stopped = true;
      break;
    }
  }
  return { files, matchCount, fileCount, stopped };
}

/** The error result of a ripgrep run that failed on the model's input; other complaints (unreadable files) are logged and the results stand. */
function failureOf(run: { readonly code: number | null; readonly stderr: string; readonly spawnError?: Error }, ctx: HandlerContext, query?: string): ToolCallResult | undefined {
  if (run.spawnError !== undefined) {
    ctx.log.error(`ripgrep could not be started: ${run.spawnError.message}`);
    return textResult(`The search could not run: ripgrep could not be started (${run.spawnError.message}).`, true);
  }
  if (run.code !== 2) return undefined;
  const failure = ripgrepFailure(run.stderr, query);
  if (failure !== undefined) return textResult(failure, true);
  ctx.log.warn(`ripgrep reported: ${run.stderr.trim().slice(0, 2000)}`);
  return undefined;
}

/** The first `max` lines of files in order. */
function firstLines(files: readonly Found[], max: number): Found[] {
  const out: Found[] = [];
  let left = max;
  for (const f of files) {
    if (left <= 0) break;
    out.push(f.lines.length > left ? { label: f.label, lines: f.lines.slice(0, left) } : f);
    left -= Math.min(left, f.lines.length);
  }
  return out;
}

// ---- fallback: the workspace API ------------------------------------------------------------

async function workspaceFiles(include: string, extraExcludes: readonly string[], ws: Workspace, ctx: HandlerContext): Promise<vscode.Uri[]> {
  const excludes = [...new Set([ALWAYS_EXCLUDED, ...ws.scopes.flatMap((s) => s.excludes), ...extraExcludes.map(fallbackGlob)])];
  const cancel = new vscode.CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await vscode.workspace.findFiles(include, joinGlobs(excludes), undefined, cancel.token);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

async function fallbackFindFiles(globs: readonly string[], ws: Workspace, ctx: HandlerContext): Promise<FileList> {
  const uris = await workspaceFiles(joinGlobs(globs.map(fallbackGlob)) ?? '**/*', [], ws, ctx);
  if (ctx.signal.aborted) return textResult(STOPPED, true);
  return { paths: uris.map((u) => labelOf(u.fsPath, ws.folders)), stopped: false };
}

async function fallbackSearch(input: EditorInput<'search_text'>, globs: SearchGlobs, max: number, ws: Workspace, ctx: HandlerContext): Promise<Matches> {
  const regex = queryRegExp(input);
  if (typeof regex === 'string') return textResult(regex, true);
  const uris = await workspaceFiles(joinGlobs(globs.include.map(fallbackGlob)) ?? '**/*', globs.exclude, ws, ctx);
  const labelled = uris.map((uri) => ({ uri, label: labelOf(uri.fsPath, ws.folders) })).sort((a, b) => byPath(a.label, b.label));
  const files: Found[] = [];
  let matchCount = 0;
  let fileCount = 0;
  let shown = 0;
  for (const { uri, label } of labelled) {
    if (ctx.signal.aborted) return textResult(STOPPED, true);
    const text = await readText(uri);
    if (text === undefined) continue;
    const lines: MatchLine[] = [];
    let hits = 0;
    for (const [i, line] of text.split(/\r?\n/).entries()) {
      const m = regex.exec(line);
      if (m === null) continue;
      hits++;
      matchCount++;
      if (shown < max) {
        lines.push({ line: i + 1, text: previewLine(line, Buffer.byteLength(line.slice(0, m.index))) });
        shown++;
      }
    }
    if (lines.length > 0) files.push({ label, lines });
    if (hits > 0) fileCount++;
    if (matchCount >= COUNT_LIMIT) return { files, matchCount, fileCount, stopped: true };
  }
  return { files, matchCount, fileCount, stopped: false };
}

/** A file's text, or undefined for one too large, binary (a NUL byte early on) or unreadable. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > FALLBACK_MAX_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return undefined;
    return new TextDecoder('utf-8').decode(bytes);
  } catch {
    return undefined;
  }
}
