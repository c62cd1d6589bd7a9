import * as vscode from 'vscode';
import type { ReadHandler } from './handler';
import { textResult } from './handler';
import { readWorkspaceText } from './workspaceText';
import { labelOf, PathRefused, resolveToolPath } from './workspacePaths';

const MAX_LISTED_ENTRIES = 1000;
const MAX_PROBLEMS = 500;

/** Reads as `cat -n` prints, the numbering Claude's coding tools use, so an edit can quote lines exactly. */
export const readFile: ReadHandler<'read_file'> = async (input) => {
  const file = await resolveToolPath(input.path);
  const text = await readWorkspaceText(file);
  const lines = text.text.split('\n');
  const first = input.offset ?? 1;
  if (first > lines.length) return textResult(`${file.label} has ${lines.length} lines; offset ${first} is past its end.`, true);
  const shown = lines.slice(first - 1, input.limit === undefined ? undefined : first - 1 + input.limit);
  const numbered = shown.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
  const partial = shown.length < lines.length ? `[${file.label}: lines ${first}–${first + shown.length - 1} of ${lines.length}]\n` : '';
  const unsaved = text.unsaved ? `[${file.label} has unsaved changes in the editor: this is the editor's text, not the file on disk]\n` : '';
  return textResult(`${unsaved}${partial}${numbered}`);
};

export const listDirectory: ReadHandler<'list_directory'> = async (input) => {
  const folder = await resolveToolPath(input.path ?? '.');
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(folder.uri);
  } catch (error) {
    return textResult(`${folder.label} cannot be listed: ${messageOf(error)}. Check the path with find_files.`, true);
  }
  const isFolder = (type: vscode.FileType): boolean => (type & vscode.FileType.Directory) !== 0;
  const names = entries
    .filter(([name]) => name !== '.git')
    .sort(([a, ta], [b, tb]) => Number(isFolder(tb)) - Number(isFolder(ta)) || a.localeCompare(b))
    .map(([name, type]) => (isFolder(type) ? `${name}/` : name));
  const cut = names.length > MAX_LISTED_ENTRIES ? `\n[${names.length - MAX_LISTED_ENTRIES} more entries not listed; use find_files with a glob]` : '';
  return textResult(names.length === 0 ? `${folder.label} is empty.` : `${folder.label}/\n${names.slice(0, MAX_LISTED_ENTRIES).join('\n')}${cut}`);
};

export const getProblems: ReadHandler<'get_problems'> = async (input) => {
  const scope = input.path === undefined ? undefined : await resolveToolPath(input.path);
  if (scope) await vscode.workspace.openTextDocument(scope.uri);
  const all: [vscode.Uri, readonly vscode.Diagnostic[]][] = scope ? [[scope.uri, vscode.languages.getDiagnostics(scope.uri)]] : vscode.languages.getDiagnostics();
  const rows = all
    .flatMap(([uri, diagnostics]) => diagnostics.map((d) => ({ label: labelOf(uri.fsPath), d })))
    .sort((a, b) => a.d.severity - b.d.severity || a.label.localeCompare(b.label) || a.d.range.start.line - b.d.range.start.line)
    .map(({ label, d }) => `${label}:${d.range.start.line + 1}:${d.range.start.character + 1} ${vscode.DiagnosticSeverity[d.severity].toLowerCase()}: ${d.message}${sourceOf(d)}`);
  const where = scope ? scope.label : 'the workspace';
  if (rows.length === 0) return textResult(`No problems reported in ${where}. (Language services report on files they have analysed; an unopened file may not be checked yet.)`);
  const cut = rows.length > MAX_PROBLEMS ? `\n[${rows.length - MAX_PROBLEMS} more not listed]` : '';
  return textResult(`${rows.length} problem${rows.length === 1 ? '' : 's'} in ${where}:\n${rows.slice(0, MAX_PROBLEMS).join('\n')}${cut}`);
};

function sourceOf(d: vscode.Diagnostic): string {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  const parts = [d.source, code].filter((p) => p !== undefined && p !== '');
  return parts.length === 0 ? '' : ` [${parts.join(' ')}]`;
}

export function messageOf(error: unknown): string {
  if (error instanceof PathRefused) return error.message;
  return error instanceof Error ? error.message : String(error);
}
