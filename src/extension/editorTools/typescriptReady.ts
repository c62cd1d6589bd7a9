import * as vscode from 'vscode';

/**
 * TypeScript, the language service that ships with VS Code, answers references, definitions and
 * renames from a syntax-only server until its semantic server reports the project loaded, and
 * that answer holds the open files only (its "partial semantic mode"). Before such a question on
 * a TS or JS file, the language tools wait for the file's project to be loaded: they ask for the
 * file's semantic diagnostics through the extension's `typescript.tsserverRequest` command (one
 * of the few read-only requests it lets through), which only the semantic server answers, after
 * loading the project and reporting it loaded.
 */

const TS_EXTENSION = 'vscode.typescript-language-features';
const TS_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
/** Longest wait for a project to load; a question asked after it may get the partial answer. */
const PROJECT_WAIT_MS = 30_000;

/**
 * Resolves once TypeScript has loaded the project of `document`, at once for other languages (or
 * when TypeScript's extension is not there); false when the wait timed out or was aborted, so the
 * answer that follows may miss files.
 */
export async function typescriptProjectLoaded(document: vscode.TextDocument, signal?: AbortSignal): Promise<boolean> {
  if (!TS_LANGUAGES.has(document.languageId) || document.uri.scheme !== 'file') return true;
  const extension = vscode.extensions.getExtension(TS_EXTENSION);
  if (extension === undefined) return true;
  if (signal?.aborted === true) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const gaveUp = new Promise<false>((done) => {
    timer = setTimeout(() => done(false), PROJECT_WAIT_MS);
    onAbort = () => done(false);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const loaded = (async (): Promise<true> => {
    try {
      if (!extension.isActive) await extension.activate();
      await vscode.commands.executeCommand('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: document.uri });
    } catch {
      // Not a question this TypeScript answers (another version, a disabled server): ask the provider anyway.
    }
    return true;
  })();
  try {
    return await Promise.race([loaded, gaveUp]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}
