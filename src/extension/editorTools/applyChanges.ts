import * as vscode from 'vscode';
import { minimalReplacement, type FileChange } from '../../core/edits';
import { exists, openDocument } from './workspaceText';

/** A change whose file is no longer as the change expects; nothing of its edit was applied. */
export class StaleChange extends Error {}

/** Why `change` can no longer apply as it was worked out (its file changed meanwhile), or undefined when it can. */
async function staleReason(change: FileChange): Promise<string | undefined> {
  const uri = vscode.Uri.file(change.path);
  switch (change.kind) {
    case 'edit':
    case 'delete': {
      if (!(await exists(uri)) && openDocument(uri) === undefined) return `${change.label} no longer exists`;
      const doc = await vscode.workspace.openTextDocument(uri);
      return doc.getText() === change.before ? undefined : `${change.label} changed since`;
    }
    case 'create':
      return (await exists(uri)) ? `${change.label} exists now` : undefined;
    case 'rename':
      if (!(await exists(vscode.Uri.file(change.fromPath)))) return `${change.fromLabel} no longer exists`;
      return (await exists(uri)) ? `${change.label} exists now` : undefined;
  }
}

/**
 * Applies changes as ONE WorkspaceEdit, so the editor's Undo takes them back, then saves what it
 * edited (the user sees the change on disk and in any open editor). Every change is checked first
 * against the text it was worked out from: if one file changed meanwhile, nothing is applied.
 */
export async function applyChanges(changes: readonly FileChange[]): Promise<void> {
  for (const change of changes) {
    const stale = await staleReason(change);
    if (stale !== undefined) throw new StaleChange(stale);
  }
  const edit = new vscode.WorkspaceEdit();
  const toSave: vscode.Uri[] = [];
  for (const change of changes) {
    const uri = vscode.Uri.file(change.path);
    switch (change.kind) {
      case 'edit': {
        const doc = await vscode.workspace.openTextDocument(uri);
        const r = minimalReplacement(change.before, change.after);
        edit.replace(uri, new vscode.Range(doc.positionAt(r.start), doc.positionAt(r.end)), r.text);
        toSave.push(uri);
        break;
      }
      case 'create':
        edit.createFile(uri, { contents: new TextEncoder().encode(change.after), overwrite: false });
        break;
      case 'delete':
        edit.deleteFile(uri, { recursive: false });
        break;
      case 'rename':
        edit.renameFile(vscode.Uri.file(change.fromPath), uri, { overwrite: false });
        break;
    }
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('the editor did not apply the change (it refused the workspace edit)');
  for (const uri of toSave) await openDocument(uri)?.save();
}

/**
 * Applies changes one by one, skipping each whose file is no longer as the change expects
 * (Undo this turn's changes: a file the user edited since is left alone, and said so).
 */
export async function applyEach(changes: readonly FileChange[]): Promise<{ readonly applied: readonly FileChange[]; readonly skipped: readonly { readonly change: FileChange; readonly why: string }[] }> {
  const applied: FileChange[] = [];
  const skipped: { change: FileChange; why: string }[] = [];
  for (const change of changes) {
    try {
      await applyChanges([change]);
      applied.push(change);
    } catch (error) {
      skipped.push({ change, why: error instanceof Error ? error.message : String(error) });
    }
  }
  return { applied, skipped };
}
