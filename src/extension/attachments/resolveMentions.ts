import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Attachment } from '../../core/attachments';
import type { Mention } from '../../core/attachments';
import { resourceAttachments, type McpFeatures } from '../mcpFeatures';
import { displayPath, fileAttachment, isOutsideWorkspace, problemsAttachment, selectionAttachment, type Resolved } from './editorAttachments';

/** Asks before a file no workspace folder holds is attached: the user picks it explicitly. */
export async function confirmOutsideWorkspace(uri: vscode.Uri): Promise<boolean> {
  if (!isOutsideWorkspace(uri)) return true;
  const choice = await vscode.window.showWarningMessage(
    `Attach ${uri.fsPath} to the chat?`,
    { modal: true, detail: 'It is outside the workspace. What you attach is sent to the model with your message.' },
    'Attach',
  );
  return choice === 'Attach';
}

/** Attaches a file the user picked, after the outside-workspace confirmation when it needs one. */
export async function attachFile(uri: vscode.Uri): Promise<Resolved | undefined> {
  return (await confirmOutsideWorkspace(uri)) ? fileAttachment(uri) : undefined;
}

/** The file a `#file:` path names: absolute, or relative to a workspace folder (the first that has it). */
async function findFile(written: string): Promise<vscode.Uri | undefined> {
  const candidates = path.isAbsolute(written)
    ? [vscode.Uri.file(written)]
    : (vscode.workspace.workspaceFolders ?? []).flatMap((f) => [vscode.Uri.joinPath(f.uri, written), ...(written.startsWith(`${f.name}/`) ? [vscode.Uri.joinPath(f.uri, written.slice(f.name.length + 1))] : [])]);
  for (const uri of candidates) {
    try {
      await vscode.workspace.fs.stat(uri);
      return uri;
    } catch {
      // Not in this folder; try the next.
    }
  }
  return undefined;
}

async function resolveMention(m: Mention, mcp: McpFeatures): Promise<Resolved | Resolved[]> {
  const editor = vscode.window.activeTextEditor;
  switch (m.kind) {
    case 'selection':
      if (!editor) return { ok: false, message: '#selection: no editor is active, so there is no selection to attach.' };
      if (!(await confirmOutsideWorkspace(editor.document.uri))) return { ok: false, message: `#selection: ${displayPath(editor.document.uri)} was not attached.` };
      return selectionAttachment(editor);
    case 'problems':
      return { ok: true, attachment: problemsAttachment(m.scope === 'active' ? editor?.document.uri : undefined) };
    case 'file': {
      const uri = await findFile(m.path);
      if (!uri) return { ok: false, message: `#file:${m.path}: there is no such file in the workspace.` };
      return (await attachFile(uri)) ?? { ok: false, message: `#file:${m.path} was not attached.` };
    }
    case 'resource': {
      const read = await resourceAttachments(mcp, m.server, m.uri);
      return read.ok ? read.value.map((attachment) => ({ ok: true, attachment })) : read;
    }
  }
}

/** Every mention resolved, in order; the first refusal stops the message (nothing half-attached is sent). */
export async function resolveMentions(mentions: readonly Mention[], mcp: McpFeatures): Promise<{ readonly ok: true; readonly attachments: readonly Attachment[] } | { readonly ok: false; readonly message: string }> {
  const attachments: Attachment[] = [];
  for (const m of mentions) {
    for (const r of [await resolveMention(m, mcp)].flat()) {
      if (!r.ok) return r;
      attachments.push(r.attachment);
    }
  }
  return { ok: true, attachments };
}
