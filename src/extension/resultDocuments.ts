import * as vscode from 'vscode';
import { resultText } from '../core/results';
import type { ConversationStore } from '../core/stream';

const SCHEME = 'quiver-result';
/** `/<conversation id>/<ref>/<file name>`: the file name only titles the tab and picks the language. */
const PATH = /^\/([^/]+)\/([^/]+)\//;

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The whole of a tool result a conversation kept, opened read-only in an editor (a virtual
 * document: nothing in it can be saved back). Read from the conversation's result store on
 * every open, so it is there after a window reload and gone once the conversation is deleted.
 */
export class ResultDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;

  constructor(private readonly store: ConversationStore) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const [, conversation, ref] = PATH.exec(uri.path) ?? [];
    if (conversation === undefined || ref === undefined) return 'This is not the address of a result Quiver kept.';
    try {
      const stored = await this.store.resultsOf(conversation).get(ref);
      return stored === undefined ? `Quiver no longer keeps ${ref} of this conversation: it was deleted with the conversation, or removed outside Quiver.` : resultText(stored.content);
    } catch (err) {
      return `Quiver could not read ${ref}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** Opens the result `conversation` kept as `ref`, titled by its tool; false when it kept none. */
  async open(conversation: string, ref: string): Promise<boolean> {
    const stored = await this.store.resultsOf(conversation).get(ref);
    if (stored === undefined) return false;
    const extension = isJson(resultText(stored.content)) ? 'json' : 'txt';
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${conversation}/${ref}/${stored.name} (${ref}).${extension}` });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return true;
  }

  dispose(): void {
    this.registration.dispose();
  }
}
