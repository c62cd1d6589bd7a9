import * as vscode from 'vscode';
import type { Attachment } from '../../core/attachments';
import type { ChatController } from '../chatController';
import type { ChatViewProvider } from '../chatViewProvider';
import { resourceAttachments, type McpFeatures } from '../mcpFeatures';
import { confirmOutsideWorkspace } from './resolveMentions';
import { fileAttachment, selectionAttachment, type Resolved } from './editorAttachments';

/** Reveals the chat with the cursor in its message box, then adds what resolved and shows each refusal. */
async function deliver(chat: ChatController, view: ChatViewProvider, results: readonly Resolved[]): Promise<void> {
  await view.focusComposer();
  const attached: Attachment[] = [];
  for (const r of results) {
    if (r.ok) attached.push(r.attachment);
    else view.refuse(r.message);
  }
  if (attached.length > 0) chat.attach(attached);
}

async function addSelection(chat: ChatController, view: ChatViewProvider): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    await deliver(chat, view, [{ ok: false, message: 'Add Selection to Chat: no editor is active.' }]);
    return;
  }
  if (!(await confirmOutsideWorkspace(editor.document.uri))) return;
  await deliver(chat, view, [selectionAttachment(editor)]);
}

/**
 * Explorer and editor-tab menus pass the clicked file, and the explorer all selected ones;
 * from the Command Palette it is the active editor's file.
 */
async function addFiles(chat: ChatController, view: ChatViewProvider, clicked?: vscode.Uri, selected?: readonly vscode.Uri[]): Promise<void> {
  const uris = selected && selected.length > 0 ? selected : clicked ? [clicked] : vscode.window.activeTextEditor ? [vscode.window.activeTextEditor.document.uri] : [];
  if (uris.length === 0) {
    await deliver(chat, view, [{ ok: false, message: 'Add File to Chat: pick a file in the Explorer, or open one in the editor.' }]);
    return;
  }
  const results: Resolved[] = [];
  for (const uri of uris) if (await confirmOutsideWorkspace(uri)) results.push(await fileAttachment(uri));
  await deliver(chat, view, results);
}

/** The Add Context path for MCP: pick one of the running servers' resources; it is read and attached. */
async function addResource(chat: ChatController, view: ChatViewProvider, mcp: McpFeatures): Promise<void> {
  const resources = mcp.resources();
  if (resources.length === 0) {
    await deliver(chat, view, [{ ok: false, message: 'Add MCP Resource to Chat: no running MCP server lists resources.' }]);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    resources.map((r) => ({ label: r.name, description: r.server, detail: r.description === undefined ? r.uri : `${r.uri} — ${r.description}`, resource: r })),
    { title: 'Add MCP Resource to Chat', matchOnDescription: true, matchOnDetail: true },
  );
  if (picked === undefined) return;
  const read = await resourceAttachments(mcp, picked.resource.server, picked.resource.uri);
  await deliver(chat, view, read.ok ? read.value.map((attachment) => ({ ok: true, attachment })) : [read]);
}

export function registerAttachCommands(chat: ChatController, view: ChatViewProvider, mcp: McpFeatures): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('quiver.addResourceToChat', () => addResource(chat, view, mcp)),
    vscode.commands.registerCommand('quiver.addSelectionToChat', () => addSelection(chat, view)),
    vscode.commands.registerCommand('quiver.addFileToChat', (clicked?: unknown, selected?: unknown) => addFiles(chat, view, asUri(clicked), asUris(selected))),
  ];
}

function asUri(value: unknown): vscode.Uri | undefined {
  return value instanceof vscode.Uri ? value : undefined;
}

function asUris(value: unknown): vscode.Uri[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is vscode.Uri => v instanceof vscode.Uri) : undefined;
}
