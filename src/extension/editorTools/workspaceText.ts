import * as vscode from 'vscode';
import type { ResolvedPath } from './workspacePaths';
import { PathRefused } from './workspacePaths';

/** Files larger than this are not read or edited whole: search_text and read_file's offset/limit serve them. */
const MAX_TEXT_BYTES = 20 * 1024 * 1024;
/** Bytes looked at for a NUL to tell a binary file. */
const BINARY_SNIFF_BYTES = 8000;

export interface WorkspaceText {
  readonly text: string;
  /** The editor holds changes not saved to disk; `text` is the editor's. */
  readonly unsaved: boolean;
}

/** The open editor document of `uri`, if any (its buffer is what the user sees). */
export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === uri.scheme && d.uri.fsPath === uri.fsPath);
}

/**
 * A file's text as the user sees it: the editor's buffer when the file is open (unsaved changes
 * included), else the file on disk. Folders, binary files and huge files are refused with a
 * reason the model can act on.
 */
export async function readWorkspaceText(file: ResolvedPath): Promise<WorkspaceText> {
  const open = openDocument(file.uri);
  if (open) return { text: open.getText(), unsaved: open.isDirty };
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(file.uri);
  } catch {
    throw new PathRefused(`${file.label} does not exist. Find the right path with find_files or list_directory.`);
  }
  if ((stat.type & vscode.FileType.Directory) !== 0) throw new PathRefused(`${file.label} is a folder; list it with list_directory.`);
  if (stat.size > MAX_TEXT_BYTES) throw new PathRefused(`${file.label} is ${(stat.size / 1024 / 1024).toFixed(1)} MB, too large to read whole; find what you need in it with search_text.`);
  const bytes = await vscode.workspace.fs.readFile(file.uri);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) throw new PathRefused(`${file.label} is a binary file (${bytes.length} bytes); it is not shown as text.`);
  return { text: new TextDecoder().decode(bytes), unsaved: false };
}

/** Whether anything exists at `uri`. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
