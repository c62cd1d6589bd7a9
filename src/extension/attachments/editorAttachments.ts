import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Attachment } from '../../core/attachments';
import { fileBlock, problemsBlock, selectionBlock, type Problem, type ProblemSeverity } from '../../core/attachments';
import { decodeText } from '../../core/attachments';

/** An attachment read from the editor, or why it could not be (for a banner). */
export type Resolved = { readonly ok: true; readonly attachment: Attachment } | { readonly ok: false; readonly message: string };

/** How the model and the chip name a file: relative to its workspace folder, else its full path. */
export function displayPath(uri: vscode.Uri): string {
  if (uri.scheme === 'untitled') return uri.path;
  const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
  return vscode.workspace.getWorkspaceFolder(uri) ? vscode.workspace.asRelativePath(uri, multiRoot) : uri.fsPath;
}

/** A file on disk that no workspace folder holds: attaching it needs the user's confirmation. */
export function isOutsideWorkspace(uri: vscode.Uri): boolean {
  return uri.scheme !== 'untitled' && vscode.workspace.getWorkspaceFolder(uri) === undefined;
}

/** The primary selection of `editor`, whole lines as the user marked them; refused when nothing is selected. */
export function selectionAttachment(editor: vscode.TextEditor): Resolved {
  const selection = editor.selection;
  const text = editor.document.getText(selection);
  const path = displayPath(editor.document.uri);
  if (selection.isEmpty || text.trim() === '') return { ok: false, message: `Nothing is selected in ${path}: select the lines to attach first.` };
  // A selection that ends at the start of a line does not include that line.
  const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  const range = { start: selection.start.line + 1, end: endLine };
  const language = editor.document.languageId;
  const attachment: Attachment = { kind: 'selection', id: randomUUID(), uri: editor.document.uri.toString(), path, language, range, text: selectionBlock(path, language, range, text) };
  return { ok: true, attachment };
}

/** Larger files are refused before they are read: only their head could be sent, and reading them would stall the host. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

type FileText = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/** A file's text from disk; a folder, an oversized, binary or non-UTF-8 file is refused with the reason. */
async function readFileText(uri: vscode.Uri, path: string): Promise<FileText> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) return { ok: false, message: `${path} is a folder: attach the files in it one by one.` };
    if (stat.size > MAX_FILE_BYTES) return { ok: false, message: `${path} was not attached: it is ${Math.round(stat.size / 1024 / 1024)} MB; attach a selection of it instead.` };
    const decoded = decodeText(await vscode.workspace.fs.readFile(uri));
    return decoded.ok ? decoded : { ok: false, message: `${path} was not attached: ${decoded.reason}.` };
  } catch (err) {
    return { ok: false, message: `${path} could not be read: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** A whole file (its unsaved text when it is open); a binary or non-UTF-8 file is refused. */
export async function fileAttachment(uri: vscode.Uri): Promise<Resolved> {
  const path = displayPath(uri);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const read = open ? { ok: true as const, text: open.getText() } : await readFileText(uri, path);
  if (!read.ok) return read;
  const language = open?.languageId ?? (await vscode.workspace.openTextDocument(uri)).languageId;
  const block = fileBlock(path, language, read.text);
  return { ok: true, attachment: { kind: 'file', id: randomUUID(), uri: uri.toString(), path, language, range: block.range, text: block.text } };
}

const SEVERITIES: Record<vscode.DiagnosticSeverity, ProblemSeverity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

function problemOf(uri: vscode.Uri, d: vscode.Diagnostic): Problem {
  const code = typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? null : String(d.code);
  return { path: displayPath(uri), line: d.range.start.line + 1, column: d.range.start.character + 1, severity: SEVERITIES[d.severity], message: d.message, source: d.source ?? null, code };
}

/** The diagnostics of one file, or of every file when `uri` is undefined. */
export function problemsAttachment(uri: vscode.Uri | undefined): Attachment {
  const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = uri ? [[uri, vscode.languages.getDiagnostics(uri)]] : vscode.languages.getDiagnostics();
  const problems = entries.flatMap(([u, list]) => list.map((d) => problemOf(u, d)));
  const path = uri ? displayPath(uri) : null;
  return { kind: 'problems', id: randomUUID(), uri: uri?.toString() ?? null, path, text: problemsBlock(path, problems) };
}
