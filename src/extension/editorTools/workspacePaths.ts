import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { climbsOut, isInside } from '../../core/edits';

/** A path argument of an editor tool, resolved: where it is, how to name it, and whether it lies in the workspace. */
export interface ResolvedPath {
  readonly uri: vscode.Uri;
  /** The file system path with symlinks followed (of its nearest existing folder, for a path that does not exist yet). */
  readonly real: string;
  /** Workspace-relative path, as the model and the user read it (the absolute path outside the workspace). */
  readonly label: string;
  /** Inside a workspace folder once symlinks are followed; a call on any other path asks first. */
  readonly inside: boolean;
}

/** A path argument the tools refuse outright, with the reason for the model. */
export class PathRefused extends Error {}

/**
 * Resolves the paths the model writes: relative to the (first) workspace folder, or to the folder
 * it names first in a multi-root workspace; absolute paths are taken as they are (and ask first
 * when outside). `..` is refused: a path is given from a workspace folder, never around it.
 */
export async function resolveToolPath(written: string): Promise<ResolvedPath> {
  if (climbsOut(written)) throw new PathRefused(`"${written}" contains "..": give the path from the workspace folder, without "..".`);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const absolute = isAbsolute(written) ? written : join(baseFolder(written, folders), stripFolderName(written, folders));
  const real = await realPathOf(absolute);
  const roots = await Promise.all(folders.map((f) => realPathOf(f.uri.fsPath)));
  const inside = roots.some((root) => isInside(root, real));
  return { uri: vscode.Uri.file(absolute), real, label: labelOf(absolute, folders), inside };
}

function baseFolder(written: string, folders: readonly vscode.WorkspaceFolder[]): string {
  const named = folders.length > 1 ? folders.find((f) => written === f.name || written.startsWith(`${f.name}/`)) : undefined;
  const first = folders[0];
  if (named) return named.uri.fsPath;
  if (first === undefined) throw new PathRefused('No folder is open in the editor, so there is no workspace to resolve paths in. Ask the user to open one.');
  return first.uri.fsPath;
}

function stripFolderName(written: string, folders: readonly vscode.WorkspaceFolder[]): string {
  if (folders.length < 2) return written;
  const named = folders.find((f) => written === f.name || written.startsWith(`${f.name}/`));
  return named ? written.slice(named.name.length).replace(/^\/+/, '') : written;
}

/** The workspace-relative label of an absolute path (prefixed with its folder's name in a multi-root workspace). */
export function labelOf(absolute: string, folders: readonly vscode.WorkspaceFolder[] = vscode.workspace.workspaceFolders ?? []): string {
  for (const folder of folders) {
    if (isInside(folder.uri.fsPath, absolute)) {
      const rel = relative(folder.uri.fsPath, absolute) || '.';
      return folders.length > 1 ? join(folder.name, rel) : rel;
    }
  }
  return absolute;
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest (a file about to be created). */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPathOf(parent), basename(path));
  }
}
