import * as vscode from 'vscode';
import { chipOf, type Attachment } from '../core/attachments';
import type { RunTrust } from '../core/availability';
import { eventIndexOfItem, HistoryFeed } from '../core/chat';
import { loadedBySearch } from '../core/search';
import { retryableMessage } from '../core/stream';
import { ModelError } from '../core/models';
import type { StreamEvent } from '../core/stream';
import type { Conversation } from '../core/stream';
import type { ConversationStore } from '../core/stream';
import type { ToolSource } from '../core/tools';
import { SEARCH_TOOLS_NAME } from '../core/tools';
import type { BuiltinTools, TurnObserver, TurnResult, TurnSettings } from '../core/turn';
import { ConversationSession } from '../core/turn';
import { addUsage, applyHostMessage, EMPTY_USAGE, type ApprovalAnswer, type ChatSnapshot, type ElicitationReply, type HostToWebview } from '../protocol';
import type { ApiKeyStore } from './apiKey';
import type { ChatController, ChatSendRequest } from './chatController';
import { ConfiguredModelClient } from './configuredModelClient';
import { effortSetting } from '../core/settings';
import { AppliedToolsSetting, readQuiverSetting } from './settings';
import type { TurnChangeActions } from './editorTools/turnChanges';
import { WebviewApprover } from './webviewApprover';
import { WebviewElicitor } from './webviewElicitor';

/** What the message box completes: tools after `/use`, prompts after `/`, resources after `#resource:`. */
export type Completions = Pick<ChatSnapshot, 'toolCompletions' | 'promptCompletions' | 'resourceCompletions'>;

export interface ChatDeps {
  readonly store: ConversationStore;
  readonly source: ToolSource;
  readonly builtins: BuiltinTools;
  readonly keys: ApiKeyStore;
  readonly memento: vscode.Memento;
  readonly log: vscode.LogOutputChannel;
  /** The user chose "Always allow": record it where the user's own approvals live (see allowAlways). */
  readonly alwaysAllow: (tool: string) => Promise<unknown>;
  /** Where the user's own approvals come from (see RunApprovals). */
  readonly runTrust: () => RunTrust;
  /** Opens the whole of a result `conversation` kept as `ref` (ResultDocuments.open); false when it kept none. */
  readonly openResult: (conversation: string, ref: string) => Promise<boolean>;
  /** Opens and undoes the file changes of the editor's tools. */
  readonly changes: TurnChangeActions;
  /** Shows a change waiting for approval as a diff beside the chat (the editor's tools' proposals), and closes it once answered. */
  readonly proposals: { readonly show: (callId: string) => void; readonly close: (callId: string) => void };
}

const ACTIVE_KEY = 'quiver.activeConversation';

export function readTurnSettings(trust: RunTrust): TurnSettings {
  return {
    tools: AppliedToolsSetting.read(trust).value,
    model: readQuiverSetting('model').value,
    maxTokens: readQuiverSetting('maxTokens').value,
    thinking: readQuiverSetting('thinking').value,
    effort: effortSetting(readQuiverSetting('effort').value),
    maxCyclesPerTurn: readQuiverSetting('maxCyclesPerTurn').value,
    searchLoadBudget: readQuiverSetting('searchMaxLoadTokens').value,
    results: { maxTokens: readQuiverSetting('resultsMaxTokens').value, thresholdTokens: readQuiverSetting('resultsThresholdTokens').value },
    contextManagement: readQuiverSetting('contextManagement').value, cacheTtl: readQuiverSetting('cacheTtl').value,
  };
}

/**
 * The chat's state holder: the active conversation's stream is the truth, and `state` is the
 * snapshot the webview shows, advanced through the protocol's own reducer by what each durable
 * event changed (a HistoryFeed patch) and by live messages (text deltas, approvals) in between.
 */
export class ChatSessionController implements ChatController, vscode.Disposable {
  private readonly posted = new vscode.EventEmitter<HostToWebview>();
  private readonly streamChanged = new vscode.EventEmitter<void>();
  /** Fires when the active conversation or its stream changes (promotions, toggles, usage). */
  readonly onDidChangeStream = this.streamChanged.event;
  private readonly approver = new WebviewApprover((msg) => this.post(msg), {
    show: (callId) => this.deps.proposals.show(callId),
    close: (callId) => this.deps.proposals.close(callId),
  });
  private readonly elicitor = new WebviewElicitor((msg) => this.post(msg), (message) => this.banner('warning', message));
  private conversation!: Conversation;
  private session!: ConversationSession;
  private state!: ChatSnapshot;
  private feed!: HistoryFeed;
  private running: { readonly abort: AbortController; readonly done: Promise<void> } | undefined;
  private liveItem = 0;
  /** Attached to the next message; kept across conversations, like the composer's draft. */
  private pending: readonly Attachment[] = [];

  private constructor(private readonly deps: ChatDeps) {}

  static async create(deps: ChatDeps): Promise<ChatSessionController> {
    const controller = new ChatSessionController(deps);
    const remembered = deps.memento.get<string>(ACTIVE_KEY);
    const opened = remembered ? await controller.tryOpen(remembered) : false;
    if (!opened) await controller.activate(await deps.store.create(), []);
    return controller;
  }

  events(): readonly StreamEvent[] {
    return this.conversation.events();
  }

  snapshot(): ChatSnapshot {
    return this.state;
  }

  onDidPost(listener: (msg: HostToWebview) => void): vscode.Disposable {
    return this.posted.event(listener);
  }

  async sendMessage(request: ChatSendRequest): Promise<void> {
    if (this.running) {
      this.banner('warning', 'A reply is still being written; wait for it or press Stop.');
      return;
    }
    const attachments = [...this.pending, ...request.attachments];
    this.setPending([]);
    await this.startMessage(request.text, request.forcedTool, attachments);
  }

  attach(attachments: readonly Attachment[]): void {
    this.setPending([...this.pending, ...attachments]);
  }

  removeAttachment(id: string): void {
    this.setPending(this.pending.filter((a) => a.id !== id));
  }

  findAttachment(id: string): Attachment | undefined {
    const recorded = this.conversation.events().flatMap((e) => (e.type === 'user_message' ? (e.attachments ?? []) : []));
    return [...this.pending, ...recorded].find((a) => a.id === id);
  }

  async regenerate(): Promise<void> {
    if (this.running) return;
    this.post({ type: 'turnStarted', user: null });
    await this.runTurn((signal) => this.session.restart(signal));
  }

  async retryMessage(itemId: string): Promise<void> {
    const failed = this.failedMessage(itemId);
    if (!failed || this.running) return;
    await this.startMessage(failed.text, failed.forced, failed.attachments, failed.index);
  }

  async dropMessage(itemId: string): Promise<void> {
    const failed = this.failedMessage(itemId);
    if (!failed) return;
    await this.drop(failed.index);
    this.refreshFromStream();
  }

  async showTools(): Promise<void> {
    await vscode.commands.executeCommand('quiver.tools.focus');
  }

  async setOption(key: string, value: string): Promise<void> {
    const result = await this.session.assign(`${key}=${value}`);
    if (result.refused) this.banner('error', result.refused);
    else if (result.changed.length === 0) this.banner('info', `${key} already is ${value}.`);
    else this.banner('info', `For this conversation: ${key}=${value}.`);
    this.refreshFromStream();
  }

  async unloadTool(name: string): Promise<void> {
    // Only what a card offers: a webview message names any string, and this is not a general toggle.
    if (!loadedBySearch(this.state.items, name)) return this.banner('warning', `${name} is not loaded by a search in this chat.`);
    const result = await this.session.toggle({ kind: 'named', name }, 'disable');
    if (result.refused) this.banner('error', result.refused);
    this.refreshFromStream();
  }

  stop(): void {
    this.running?.abort.abort();
  }

  async newChat(): Promise<void> {
    await this.halt();
    await this.activate(await this.deps.store.create(), []);
  }

  async openConversation(id: string): Promise<void> {
    if (id === this.conversation.id) return;
    await this.halt();
    if (!(await this.tryOpen(id))) this.banner('error', 'That conversation could not be opened; it may have been deleted.');
  }

  async renameConversation(id: string, title: string): Promise<void> {
    const trimmed = title.trim();
    if (trimmed === '') return this.banner('error', 'A conversation title cannot be empty.');
    // The open conversation is renamed through its own handle, so its in-memory stream sees it.
    if (id === this.conversation.id) await this.conversation.append({ type: 'renamed', title: trimmed, at: new Date().toISOString() });
    else await this.deps.store.rename(id, trimmed);
    await this.postConversations();
  }

  async deleteConversation(id: string): Promise<void> {
    // The turn must have written its last event before the file goes, or the append revives it.
    if (id === this.conversation.id) await this.halt();
    await this.deps.store.delete(id);
    if (id === this.conversation.id) await this.activate(await this.deps.store.create(), []);
    else await this.postConversations();
  }

  async openChange(callId: string, index: number): Promise<void> {
    await this.deps.changes.open(this.conversation.events(), callId, index);
  }

  /** Undo this turn's changes: puts the files back and tells the model at the next message. */
  async undoChanges(summaryItemId: string): Promise<void> {
    const undone = await this.deps.changes.undo(this.conversation.events(), summaryItemId);
    if (undone === undefined) return;
    await this.conversation.append(undone);
    this.refreshFromStream();
    if (undone.skipped.length > 0) this.banner('warning', `Not undone, changed since: ${undone.skipped.map((s) => s.label).join(', ')}. Use the editor's Undo (Ctrl+Z) in those files.`);
  }

  async openResult(ref: string): Promise<void> {
    if (!(await this.deps.openResult(this.conversation.id, ref))) this.banner('warning', `This chat keeps no result ${ref}; it may have been removed outside Quiver.`);
  }

  answerApproval(callId: string, answer: ApprovalAnswer, reason: string): void {
    this.approver.answer(callId, { answer, reason });
  }

  async answerElicitation(promptId: string, reply: ElicitationReply): Promise<void> {
    await this.elicitor.answer(promptId, reply);
  }

  async setApiKey(): Promise<void> {
    await vscode.commands.executeCommand('quiver.setApiKey');
  }

  /** The key, the model, the tools or the servers' prompts and resources may have changed: re-send what the header and completion show, if it did. */
  async refreshEnvironment(completions: Completions = this.state): Promise<void> {
    const apiKeySet = (await this.deps.keys.get()) !== undefined;
    const model = readQuiverSetting('model').value;
    const { toolCompletions, promptCompletions, resourceCompletions } = completions;
    const same =
      apiKeySet === this.state.apiKeySet && model === this.state.model && JSON.stringify([toolCompletions, promptCompletions, resourceCompletions]) === JSON.stringify([this.state.toolCompletions, this.state.promptCompletions, this.state.resourceCompletions]);
    if (same) return;
    this.state = { ...this.state, apiKeySet, model, toolCompletions, promptCompletions, resourceCompletions };
    this.post({ type: 'snapshot', state: this.state });
  }

  dispose(): void {
    this.stop();
    this.posted.dispose();
    this.streamChanged.dispose();
  }

  /** The failed user message a chat item shows, or undefined (with a banner) when it is not one. */
  private failedMessage(itemId: string): { readonly index: number; readonly text: string; readonly forced: string | null; readonly attachments: readonly Attachment[] } | undefined {
    const index = eventIndexOfItem(itemId);
    const event = index === undefined ? undefined : retryableMessage(this.conversation.events(), index);
    if (index === undefined || event === undefined) {
      this.banner('warning', 'That message is no longer waiting to be retried.');
      return undefined;
    }
    return { index, text: event.text, forced: event.forced ?? null, attachments: event.attachments ?? [] };
  }

  /** `replaces`: the failed message a Retry sends again (dropped when this one is recorded). */
  private async startMessage(text: string, forced: string | null, attachments: readonly Attachment[], replaces: number | null = null): Promise<void> {
    if (this.running) return;
    this.post({ type: 'turnStarted', user: { kind: 'user', id: `live-user-${++this.liveItem}`, text, forced, attachments: attachments.map(chipOf), status: 'sent' } });
    await this.runTurn((signal) => this.session.send(text, signal, forced ?? undefined, attachments, replaces));
  }

  private setPending(list: readonly Attachment[]): void {
    this.pending = list;
    this.post({ type: 'attachments', list: list.map(chipOf) });
  }

  private async drop(index: number): Promise<void> {
    await this.conversation.append({ type: 'message_dropped', index, at: new Date().toISOString() });
  }

  /** Cancels the running turn and waits until it has written its last event. */
  private async halt(): Promise<void> {
    const running = this.running;
    running?.abort.abort();
    await running?.done;
  }

  private runTurn(start: (signal: AbortSignal) => Promise<TurnResult>): Promise<void> {
    const abort = new AbortController();
    const done = this.turn(start, abort);
    this.running = { abort, done };
    return done;
  }

  private async turn(start: (signal: AbortSignal) => Promise<TurnResult>, abort: AbortController): Promise<void> {
    try {
      const result = await start(abort.signal);
      if (result.reason === 'refused' && result.message) this.banner('warning', result.message);
    } catch (err) {
      this.deps.log.error(`turn failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      this.banner('error', err instanceof ModelError ? err.message : `The turn stopped unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.running = undefined;
      this.refreshFromStream();
      await this.postConversations();
    }
  }

  /** Live progress of `conversation`'s turns; anything arriving after another conversation is shown is dropped. */
  private observer(conversation: Conversation): TurnObserver {
    let request = '';
    let part = 0;
    let streaming: 'text' | 'thinking' | null = null;
    // Each stretch of text or thinking in a reply is its own item, in the order the model wrote
    // them, as the stream shows it once the reply is recorded (see historyFromStream).
    const partId = (kind: 'text' | 'thinking'): string => {
      if (streaming !== kind) {
        streaming = kind;
        part++;
      }
      return `${request}.${part}`;
    };
    const shown = (): boolean => this.conversation === conversation;
    return {
      onRequest: ({ cycle }) => {
        request = `live-${++this.liveItem}-${cycle}`;
        part = 0;
        streaming = null;
      },
      onWaitingForServers: (servers) => {
        if (shown()) this.banner('info', `Waiting for MCP ${servers.length === 1 ? 'server' : 'servers'} ${servers.map((s) => `"${s}"`).join(', ')} to start: this message needs ${servers.length === 1 ? 'a tool of it' : 'their tools'}. Press Stop to cancel.`);
      },
      onText: (text) => {
        if (shown()) this.post({ type: 'textDelta', itemId: partId('text'), text });
      },
      onThinking: (text) => {
        if (shown() && text !== '') this.post({ type: 'thinkingDelta', itemId: partId('thinking'), text });
      },
      onToolCallStarted: (call) => {
        if (shown()) this.post({ type: 'toolCallStarted', callId: call.id, name: call.name, input: call.input, card: call.name === SEARCH_TOOLS_NAME ? 'search' : 'tool' });
      },
      onToolProgress: (id, p) => {
        if (shown()) this.post({ type: 'toolProgress', callId: id, progress: { progress: p.progress, total: p.total ?? null, message: p.message ?? null } });
      },
      onUsage: (usage) => {
        if (!shown()) return;
        const turn = { input: usage.inputTokens, output: usage.outputTokens, cacheRead: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens };
        this.post({ type: 'usage', usage: addUsage(this.state.liveUsage ?? EMPTY_USAGE, turn) });
      },
      onAlwaysAllowed: (name) => {
        this.deps.alwaysAllow(name).then(undefined, (err: unknown) => this.banner('error', `Could not save "always allow" for ${name}: ${String(err)}`));
      },
      onEvent: (event) => {
        if (!shown()) return;
        if (event.type !== 'user_message' && event.type !== 'turn_start') this.refreshFromStream();
        else this.streamChanged.fire();
      },
    };
  }

  private async tryOpen(id: string): Promise<boolean> {
    try {
      const { conversation, issues } = await this.deps.store.open(id);
      await this.activate(conversation, issues.map((i) => i.message));
      return true;
    } catch (err) {
      this.deps.log.warn(`could not open conversation ${id}: ${String(err)}`);
      return false;
    }
  }

  private async activate(conversation: Conversation, issues: readonly string[]): Promise<void> {
    await this.dropIfEmpty();
    this.conversation = conversation;
    this.session = new ConversationSession({
      log: conversation,
      model: new ConfiguredModelClient(this.deps.keys),
      source: this.deps.source,
      builtins: this.deps.builtins,
      approver: this.approver,
      elicitor: this.elicitor,
      observer: this.observer(conversation),
      results: this.deps.store.resultsOf(conversation.id),
      settings: () => readTurnSettings(this.deps.runTrust()),
    });
    await this.deps.memento.update(ACTIVE_KEY, conversation.id);
    this.feed = new HistoryFeed(conversation.events(), false);
    this.state = {
      conversation: { id: conversation.id, title: conversation.title() },
      items: this.feed.items,
      model: readQuiverSetting('model').value,
      busy: false,
      liveUsage: null,
      apiKeySet: (await this.deps.keys.get()) !== undefined,
      conversations: [],
      pendingApprovals: [],
      pendingElicitations: [],
      // Completions come from the tools model, which listens to this controller's stream.
      toolCompletions: this.state?.toolCompletions ?? [],
      promptCompletions: this.state?.promptCompletions ?? [],
      resourceCompletions: this.state?.resourceCompletions ?? [],
      attachments: this.pending.map(chipOf),
    };
    this.post({ type: 'snapshot', state: this.state });
    await this.postConversations();
    this.streamChanged.fire();
    for (const issue of issues) this.banner('warning', `Part of this conversation could not be loaded: ${issue}`);
  }

  /** A chat that never got a message leaves no file behind when the user moves on. */
  private async dropIfEmpty(): Promise<void> {
    if (this.conversation && this.conversation.events().length === 0) await this.deps.store.delete(this.conversation.id);
  }

  private refreshFromStream(): void {
    const busy = this.running !== undefined;
    const { patch, liveUsage } = this.feed.update(this.conversation.events(), busy);
    const conversation = { id: this.conversation.id, title: this.conversation.title() };
    this.post({ type: 'historyPatch', items: patch, busy, liveUsage: busy ? (this.state.liveUsage ?? liveUsage) : null, conversation, pendingElicitations: busy ? this.elicitor.pending() : [] });
    this.streamChanged.fire();
  }

  private async postConversations(): Promise<void> {
    const list = (await this.deps.store.list())
      .filter((c) => c.id !== this.conversation.id || this.conversation.events().length > 0)
      .map((c) => ({ id: c.id, title: c.id === this.conversation.id ? this.conversation.title() : c.title, updatedAt: c.updated.toISOString() }));
    this.post({ type: 'conversations', list, current: { id: this.conversation.id, title: this.conversation.title() } });
  }

  private banner(severity: 'error' | 'warning' | 'info', message: string): void {
    this.post({ type: 'banner', severity, message });
  }

  private post(msg: HostToWebview): void {
    this.state = applyHostMessage(this.state, msg);
    this.posted.fire(msg);
  }
}
