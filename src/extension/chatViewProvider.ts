import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { parseMentions, withResourceNames } from '../core/attachments';
import { openableHref } from '../core/text';
import { parseSlashCommand } from '../core/slashCommands';
import { parseWebviewToHost, type BannerSeverity, type HostToWebview, type WebviewToHost } from '../protocol';
import { openAttachment } from './attachments/openAttachment';
import { resolveMentions } from './attachments/resolveMentions';
import { WorkspaceFiles } from './attachments/workspaceFiles';
import { buildChatHtml } from './chatHtml';
import type { ChatController } from './chatController';
import { promptMessage, resourceAttachments, type McpFeatures } from './mcpFeatures';

export interface ChatViewLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * The host side of the chat webview (`quiver.chat`). It holds no chat state: it builds the page,
 * validates what the page sends, turns it into one ChatController call, and forwards what the
 * controller posts. Until the page says `ready`, posts are dropped: `ready` is answered with a
 * full snapshot, which covers everything dropped before it.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'quiver.chat';

  private view: vscode.WebviewView | undefined;
  private ready = false;
  /** Banners posted while a visible page loads, shown once it is ready (an attach command reveals the chat, then refuses). */
  private queuedBanners: HostToWebview[] = [];
  /** Notices of a standing problem (an unusable setting) found while no page was ready: shown when one is, unless withdrawn first. */
  private readonly heldNotices = new Map<string, HostToWebview>();
  private readonly files = new WorkspaceFiles();
  private readonly viewDisposables: vscode.Disposable[] = [];
  private readonly controllerSubscription: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    private readonly log: ChatViewLogger,
    private readonly mcp: McpFeatures,
  ) {
    this.controllerSubscription = controller.onDidPost((msg) => this.post(msg));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.disposeView();
    this.view = view;
    this.ready = false;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, enableForms: false, enableCommandUris: false, localResourceRoots: [dist, media] };
    const asUri = (...segments: string[]): string => view.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...segments)).toString();
    view.webview.html = buildChatHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      scriptUri: asUri('dist', 'webview.js'),
      styleUris: [asUri('dist', 'codicons', 'codicon.css'), asUri('media', 'chat.css')],
    });
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      // A hidden view's page is torn down and reloads on show, announcing itself with `ready`.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.ready = false;
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
          this.disposeView();
        }
      }),
    );
  }

  /** Reveals the chat and focuses its input (for a "Quiver: Open Chat" command). */
  show(): void {
    this.view?.show(false);
  }

  /** Quiver: Focus Chat: reveals the chat and puts the cursor in its message box (a page loading now focuses it itself). */
  async focusComposer(): Promise<void> {
    if (!this.view) {
      await vscode.commands.executeCommand(`${ChatViewProvider.viewType}.focus`);
      return;
    }
    this.view.show(false);
    this.post({ type: 'focusComposer' });
  }

  dispose(): void {
    this.controllerSubscription.dispose();
    this.disposeView();
    this.view = undefined;
  }

  private disposeView(): void {
    for (const d of this.viewDisposables.splice(0)) d.dispose();
  }

  private post(msg: HostToWebview): void {
    if (this.view?.visible === true && !this.ready && msg.type === 'banner') this.queuedBanners = [...this.queuedBanners, msg].slice(-3);
    if (!this.view || !this.ready) return;
    this.view.webview.postMessage(msg).then(
      (delivered) => {
        if (!delivered) this.ready = false;
      },
      (err: unknown) => this.log.warn(`chat: posting ${msg.type} failed: ${describe(err)}`),
    );
  }

  private banner(severity: 'error' | 'warning' | 'info', message: string): void {
    this.post({ type: 'banner', severity, message });
  }

  /** Runs a controller call, turning a rejection into a log line and an error banner. */
  private run(what: string, task: () => Promise<void> | void): void {
    const report = (err: unknown): void => {
      this.log.error(`chat: ${what} failed: ${describe(err)}`);
      this.banner('error', `${what} failed: ${describe(err)}`);
    };
    try {
      const result = task();
      if (result) result.then(undefined, report);
    } catch (err) {
      report(err);
    }
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewToHost(raw);
    if (!parsed.ok) {
      this.log.warn(`chat: ignored an invalid webview message: ${parsed.error}`);
      return;
    }
    this.handle(parsed.value);
  }

  private handle(msg: WebviewToHost): void {
    const c = this.controller;
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.run('Loading the chat', () => {
          this.post({ type: 'snapshot', state: c.snapshot() });
          for (const banner of this.queuedBanners.splice(0)) this.post(banner);
          for (const notice of this.heldNotices.values()) this.post(notice);
          this.heldNotices.clear();
        });
        return;
      case 'sendMessage':
        this.sendMessage(msg.text);
        return;
      case 'stop':
        this.run('Stopping', () => c.stop());
        return;
      case 'openConversation':
        this.run('Opening the chat', () => c.openConversation(msg.id));
        return;
      case 'renameConversation':
        this.run('Renaming the chat', () => c.renameConversation(msg.id, msg.title));
        return;
      case 'deleteConversation':
        this.run('Deleting the chat', () => this.confirmDelete(msg.id));
        return;
      case 'approvalAnswer':
        this.run('Answering the approval', () => c.answerApproval(msg.callId, msg.answer, msg.reason));
        return;
      case 'openChange':
        this.run('Opening the change', () => c.openChange(msg.callId, msg.index));
        return;
      case 'undoChanges':
        this.run('Undoing the changes', () => c.undoChanges(msg.itemId));
        return;
      case 'elicitationAnswer':
        this.run('Answering the server', () => c.answerElicitation(msg.promptId, msg.reply));
        return;
      case 'regenerate':
        this.run('Regenerating', () => c.regenerate());
        return;
      case 'retryMessage':
        this.run('Retrying the message', () => c.retryMessage(msg.id));
        return;
      case 'dropMessage':
        this.run('Dropping the message', () => c.dropMessage(msg.id));
        return;
      case 'setApiKey':
        this.run('Setting the API key', () => c.setApiKey());
        return;
      case 'openLink':
        this.run('Opening the link', () => this.openLink(msg.href));
        return;
      case 'removeAttachment':
        c.removeAttachment(msg.id);
        return;
      case 'openAttachment':
        this.run('Opening the attachment', () => this.openAttachment(msg.id));
        return;
      case 'openResult':
        this.run('Opening the result', () => c.openResult(msg.ref));
        return;
      case 'completeFiles':
        this.run('Listing workspace files', async () => this.post({ type: 'fileCompletions', query: msg.query, files: await this.files.complete(msg.query) }));
        return;
      case 'unloadTool':
        this.run(`Unloading ${msg.name}`, () => c.unloadTool(msg.name));
        return;
    }
  }

  /** A notice about a standing problem, keyed by it: shown now, or when the chat next opens if it is not open now. */
  showNotice(key: string, severity: BannerSeverity, message: string): void {
    const notice: HostToWebview = { type: 'banner', severity, message };
    if (this.view && this.ready) this.post(notice);
    else this.heldNotices.set(key, notice);
  }

  /** The problem went away: a notice about it not shown yet never is. */
  withdrawNotice(key: string): void {
    this.heldNotices.delete(key);
  }

  /** Shows an attachment refusal in the chat (a binary file, nothing selected…). */
  refuse(message: string): void {
    this.banner('warning', message);
  }

  /** Resolves the `#` mentions of a message when it is sent; a refusal keeps the message unsent, back in the message box. */
  private async sendWithMentions(raw: string, text: string, forcedTool: string | null): Promise<void> {
    const resolved = await resolveMentions(parseMentions(text), this.mcp);
    if (!resolved.ok) {
      this.banner('warning', resolved.message);
      this.post({ type: 'restoreDraft', text: raw });
      return;
    }
    const named = (server: string, uri: string): string | undefined => resolved.attachments.flatMap((a) => (a.kind === 'resource' && a.server === server && a.uri === uri ? [a.name] : []))[0];
    await this.controller.sendMessage({ text: withResourceNames(text, named), forcedTool, attachments: resolved.attachments });
  }

  private async openAttachment(id: string): Promise<void> {
    const attachment = this.controller.findAttachment(id);
    if (attachment) await openAttachment(attachment);
    else this.banner('warning', 'That attachment is no longer in this chat.');
  }

  private sendMessage(text: string): void {
    const parsed = parseSlashCommand(text);
    if (!parsed.ok) {
      this.banner('error', parsed.error);
      return;
    }
    const cmd = parsed.command;
    const c = this.controller;
    switch (cmd.kind) {
      case 'message':
        if (cmd.text.trim() === '') return;
        this.run('Sending', () => this.sendWithMentions(text, cmd.text, null));
        return;
      case 'use':
        this.run('Sending', () => this.sendWithMentions(text, cmd.text, cmd.tool));
        return;
      case 'tools':
        this.run('Listing tools', () => c.showTools());
        return;
      case 'set':
        this.run(`Setting ${cmd.key}`, () => c.setOption(cmd.key, cmd.value));
        return;
      case 'prompt':
        this.run(`Getting /${cmd.name}`, () => this.sendPrompt(text, cmd));
        return;
    }
  }

  /** `/server.prompt`: its messages become the user's message; a failure puts the command back in the message box. */
  private async sendPrompt(raw: string, cmd: Parameters<typeof promptMessage>[1]): Promise<void> {
    const message = await promptMessage(this.mcp, cmd);
    if (message === undefined || !message.ok) {
      if (message !== undefined) this.banner('warning', message.message);
      this.post({ type: 'restoreDraft', text: raw });
      return;
    }
    await this.controller.sendMessage({ text: message.value.text, forcedTool: null, attachments: message.value.attachments });
  }

  private async confirmDelete(id: string): Promise<void> {
    const title = this.controller.snapshot().conversations.find((conv) => conv.id === id)?.title ?? 'this chat';
    const choice = await vscode.window.showWarningMessage(`Delete "${title}"?`, { modal: true, detail: 'The conversation and its history are removed. This cannot be undone.' }, 'Delete');
    if (choice === 'Delete') await this.controller.deleteConversation(id);
  }

  private async openLink(href: string): Promise<void> {
    const safe = openableHref(href);
    const resource = safe === null ? this.mcp.resources().find((r) => r.uri === href) : undefined;
    if (resource !== undefined) {
      const read = await resourceAttachments(this.mcp, resource.server, resource.uri);
      if (read.ok) for (const a of read.value) await openAttachment(a);
      else this.banner('warning', read.message);
      return;
    }
    if (safe === null) {
      this.log.warn(`chat: refused to open a link: ${href.slice(0, 200)}`);
      this.banner('warning', 'Quiver only opens http, https and mailto links, and resources a running MCP server lists.');
      return;
    }
    // `true`: the string is already a valid URI; no second round of percent-decoding.
    await vscode.env.openExternal(vscode.Uri.parse(safe, true));
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
