import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { enabledGlobs, type SearchScope } from '../../core/editorTools';

/**
 * The ripgrep binary VS Code ships (the one its Search view runs), and one run of it. Its place
 * moved over the years: @vscode/ripgrep (in node_modules.asar.unpacked in desktop builds), and
 * @vscode/ripgrep-universal with one binary per platform.
 */
function candidates(appRoot: string): string[] {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const platform = `${process.platform}-${process.arch}`;
  return ['node_modules', 'node_modules.asar.unpacked'].flatMap((modules) => [
    join(appRoot, modules, '@vscode', 'ripgrep', 'bin', exe),
    join(appRoot, modules, '@vscode', 'ripgrep-universal', 'bin', platform, exe),
  ]);
}

let located: Promise<string | undefined> | undefined;
let override: { readonly path: string | undefined } | undefined;

/** The path of VS Code's ripgrep, or undefined when this editor has none (looked up once). */
export function ripgrepPath(): Promise<string | undefined> {
  if (override !== undefined) return Promise.resolve(override.path);
  located ??= (async () => {
    for (const path of candidates(vscode.env.appRoot)) {
      try {
        await access(path, constants.X_OK);
        return path;
      } catch { /* next */ }
    }
    return undefined;
  })();
  return located;
}

/** Tests only: pretend ripgrep is at `path` (undefined: missing, so the fallback runs); null restores the lookup. */
export function setRipgrepPathForTests(path: string | undefined | null): void {
  override = path === null ? undefined : { path };
}

/** What the settings of a folder leave out of its searches (see SearchScope). */
export function searchScope(folder: vscode.Uri | undefined): SearchScope {
  const files = vscode.workspace.getConfiguration('files', folder);
  const search = vscode.workspace.getConfiguration('search', folder);
  const excludes = [...new Set([...enabledGlobs(files.get('exclude')), ...enabledGlobs(search.get('exclude'))])];
  return {
    excludes,
    useIgnoreFiles: search.get<boolean>('useIgnoreFiles') ?? true,
    useParentIgnoreFiles: search.get<boolean>('useParentIgnoreFiles') ?? false,
    useGlobalIgnoreFiles: search.get<boolean>('useGlobalIgnoreFiles') ?? false,
    followSymlinks: search.get<boolean>('followSymlinks') ?? true,
  };
}

export interface RipgrepRun {
  /** ripgrep's exit code: 0 found, 1 nothing found, 2 an error (with or without results); null when stopped. */
  readonly code: number | null;
  readonly stderr: string;
  /** It could not be started at all. */
  readonly spawnError?: Error;
}

const STDERR_CHARS = 16_000;

/**
 * Runs ripgrep in `cwd` and hands each line of its output to `onLine` (false: stop it). Stopped
 * when `signal` aborts; resolves when the process is gone, never rejects.
 */
export function runRipgrep(rg: string, args: readonly string[], cwd: string, signal: AbortSignal, onLine: (line: string) => boolean): Promise<RipgrepRun> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ code: null, stderr: '' });
      return;
    }
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    let stderr = '';
    let rest = '';
    let stopped = false;
    let spawnError: Error | undefined;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      child.kill();
    };
    signal.addEventListener('abort', stop, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stopped) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!onLine(line)) {
          stop();
          return;
        }
      }
    });
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_CHARS) stderr += chunk;
    });
    child.on('error', (err) => {
      spawnError = err;
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', stop);
      if (!stopped && rest.length > 0) onLine(rest);
      resolve({ code: stopped ? null : code, stderr, ...(spawnError ? { spawnError } : {}) });
    });
  });
}

/** Runs `fn` with the path of a temporary file holding `rules` (undefined: no file), removed afterwards. */
export async function withIncludeFile<T>(rules: string | undefined, fn: (path: string | undefined) => Promise<T>): Promise<T> {
  if (rules === undefined) return fn(undefined);
  const dir = await mkdtemp(join(tmpdir(), 'quiver-rg-'));
  try {
    const path = join(dir, 'include.ignore');
    await writeFile(path, rules);
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
