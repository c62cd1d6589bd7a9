import { chipOf, type Attachment } from '../attachments/attachment';
import { eventIndexOfItem, HistoryFeed } from '../chat';
import type { ApprovalAnswer, ChatSnapshot, ElicitationReply, HostToWebview } from '../chatView/contract';
import { applyHostMessage } from '../chatView/state';
import { ModelError } from '../models/model';
import { loadedBySearch } from '../search/card';
import type { Conversation } from '../stream/conversation';
import type { StreamEvent } from '../stream/events';
import { retryableMessage } from '../stream/failedMessages';
import { Emitter, type Unsubscribe } from '../tools';
import type { TurnResult } from '../turn/ports';
import { ConversationSession, REPLY_RUNNING } from '../turn/session';
import { ChatApprover } from './approvals';
import { ChatElicitor } from './elicitations';
import { liveObserver } from './liveObserver';
import type { ChatSessionPorts } from './ports';

/** What the message box completes: tools after `/use`, prompts after `/`, resources after `#resource:`. */
export type Completions = Pick<ChatSnapshot, 'toolCompletions' | 'promptCompletions' | 'resourceCompletions'>;

/** A failed user message a Retry sends again: its place in the stream and what it said. */
interface FailedMessage {
  readonly index: number;
  readonly text: string;
  readonly forced: string | null;
  readonly attachments: readonly Attachment[];
}

/**
 * The chat's state machine: the open conversation (its stream is the truth), one turn at a
 * time, the attachments waiting for the next message, retry and drop of failed messages, and
 * `snapshot()`, what the webview shows, advanced through the protocol's own reducer by what each
 * durable event changed (a HistoryFeed patch) and by live messages (text deltas, approvals) in
 * between. It speaks only the host↔webview contract and its ports, so it runs without an editor.
 */
export class ChatSession {
  private readonly posted = new Emitter<HostToWebview>();
  private readonly streamChanged = new Emitter<void>();
  private readonly approver: ChatApprover;
  private readonly elicitor: ChatElicitor;
  private conversation!: Conversation;
  private session!: ConversationSession;
  private state!: ChatSnapshot;
  private feed!: HistoryFeed;
  private running: { readonly abort: AbortController; readonly done: Promise<void> } | undefined;
  /** Numbers the live items (the sent message, each request's reply) until the stream records them. */
  private liveItem = 0;
  /** Attached to the next message; kept across conversations, like the composer's draft. */
  private pending: readonly Attachment[] = [];

  constructor(private readonly ports: ChatSessionPorts) {
    this.approver = new ChatApprover((msg) => this.post(msg), ports.proposals);
    this.elicitor = new ChatElicitor((msg) => this.post(msg), (message) => this.banner('warning', message), ports.openExternal);
  }

  /** Opens the conversation open last, or a new one when it is gone. */
  async start(): Promise<void> {
    const remembered = this.ports.lastOpened.get();
    const opened = remembered !== undefined && (await this.tryOpen(remembered));
    if (!opened) await this.activate(await this.ports.store.create(), []);
  }

  events(): readonly StreamEvent[] {
    return this.conversation.events();
  }

  snapshot(): ChatSnapshot {
    return this.state;
  }

  /** Every message for the webview, in order; applying them all to the first snapshot gives `snapshot()`. */
  onPost(listener: (msg: HostToWebview) => void): Unsubscribe {
    return this.posted.on(listener);
  }

  /** The open conversation or its stream changed (promotions, toggles, usage). */
  onStreamChange(listener: () => void): Unsubscribe {
    return this.streamChanged.on(listener);
  }

  /** Sends a message with the waiting attachments, or says a reply is still running. */
  async sendMessage(request: { readonly text: string; readonly forcedTool: string | null; readonly attachments: readonly Attachment[] }): Promise<void> {
    if (this.running) return this.banner('warning', REPLY_RUNNING);
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
    if (this.running) return this.banner('warning', REPLY_RUNNING);
    this.post({ type: 'turnStarted', user: null });
    await this.runTurn((signal) => this.session.restart(signal));
  }

  async compact(): Promise<void> {
    if (this.running) return this.banner('warning', REPLY_RUNNING);
    this.post({ type: 'turnStarted', user: null });
    await this.runTurn((signal) => this.session.compact(signal));
  }

  async retryMessage(itemId: string): Promise<void> {
    if (this.running) return this.banner('warning', REPLY_RUNNING);
    const failed = this.failedMessage(itemId);
    if (failed) await this.startMessage(failed.text, failed.forced, failed.attachments, failed.index);
  }

  async dropMessage(itemId: string): Promise<void> {
    const failed = this.failedMessage(itemId);
    if (!failed) return;
    await this.conversation.append({ type: 'message_dropped', index: failed.index, at: new Date().toISOString() });
    this.refreshFromStream();
  }

  /** `/set KEY=VALUE` for this conversation, answered with a banner. */
  async setOption(key: string, value: string): Promise<void> {
    const result = await this.session.assign(`${key}=${value}`);
    if (result.refused) this.banner('error', result.refused);
    else if (result.changed.length === 0) this.banner('info', `${key} already is ${value}.`);
    else this.banner('info', `For this conversation: ${key}=${value}.`);
    this.refreshFromStream();
  }

  /** Unload on a search card: only a tool a card shows loaded (a webview message may name any string). */
  async unloadTool(name: string): Promise<void> {
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
    await this.activate(await this.ports.store.create(), []);
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
    else await this.ports.store.rename(id, trimmed);
    await this.postConversations();
  }

  async deleteConversation(id: string): Promise<void> {
    // The turn must have written its last event before the file goes, or the append revives it.
    if (id === this.conversation.id) await this.halt();
    await this.ports.store.delete(id);
    if (id === this.conversation.id) await this.activate(await this.ports.store.create(), []);
    else await this.postConversations();
  }

  async openChange(callId: string, index: number): Promise<void> {
    await this.ports.changes.open(this.conversation.events(), callId, index);
  }

  /** Undo this turn's changes: puts the files back and tells the model at the next message. */
  async undoChanges(summaryItemId: string): Promise<void> {
    const undone = await this.ports.changes.undo(this.conversation.events(), summaryItemId);
    if (undone === undefined) return;
    await this.conversation.append(undone);
    this.refreshFromStream();
    if (undone.skipped.length > 0) this.banner('warning', `Not undone, changed since: ${undone.skipped.map((s) => s.label).join(', ')}. Use the editor's Undo (Ctrl+Z) in those files.`);
  }

  async openResult(ref: string): Promise<void> {
    if (!(await this.ports.openResult(this.conversation.id, ref))) this.banner('warning', `This chat keeps no result ${ref}; it may have been removed outside Quiver.`);
  }

  answerApproval(callId: string, answer: ApprovalAnswer, reason: string): void {
    this.approver.answer(callId, { answer, reason });
  }

  async answerElicitation(promptId: string, reply: ElicitationReply): Promise<void> {
    await this.elicitor.answer(promptId, reply);
  }

  /** The key, the model, the tools or the servers' prompts and resources may have changed: re-send what the header and completion show, if it did. */
  async refreshEnvironment(completions: Completions = this.state): Promise<void> {
    const apiKeySet = await this.ports.apiKeySet();
    const model = this.ports.modelName();
    const { toolCompletions, promptCompletions, resourceCompletions } = completions;
    const same =
      apiKeySet === this.state.apiKeySet && model === this.state.model && JSON.stringify([toolCompletions, promptCompletions, resourceCompletions]) === JSON.stringify([this.state.toolCompletions, this.state.promptCompletions, this.state.resourceCompletions]);
    if (same) return;
    this.state = { ...this.state, apiKeySet, model, toolCompletions, promptCompletions, resourceCompletions };
    this.post({ type: 'snapshot', state: this.state });
  }

  /** The failed user message a chat item shows, or undefined (with a banner) when it is not one. */
  private failedMessage(itemId: string): FailedMessage | undefined {
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
    this.post({ type: 'turnStarted', user: { kind: 'user', id: `live-user-${++this.liveItem}`, text, forced, attachments: attachments.map(chipOf), status: 'sent' } });
    await this.runTurn((signal) => this.session.send(text, signal, forced ?? undefined, attachments, replaces));
  }

  private setPending(list: readonly Attachment[]): void {
    this.pending = list;
    this.post({ type: 'attachments', list: list.map(chipOf) });
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
      this.ports.log.error(`turn failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      this.banner('error', err instanceof ModelError ? err.message : `The turn stopped unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.running = undefined;
      this.refreshFromStream();
      await this.postConversations();
    }
  }

  private async tryOpen(id: string): Promise<boolean> {
    try {
      const { conversation, issues } = await this.ports.store.open(id);
      await this.activate(conversation, issues.map((i) => i.message));
      return true;
    } catch (err) {
      this.ports.log.warn(`could not open conversation ${id}: ${String(err)}`);
      return false;
    }
  }

  private async activate(conversation: Conversation, issues: readonly string[]): Promise<void> {
    await this.dropIfEmpty();
    this.conversation = conversation;
    const shown = (): boolean => this.conversation === conversation;
    this.session = new ConversationSession({
      log: conversation,
      model: this.ports.modelClient(),
      source: this.ports.source,
      builtins: this.ports.builtins,
      approver: this.approver,
      elicitor: this.elicitor,
      observer: liveObserver({
        shown,
        post: (msg) => this.post(msg),
        banner: (severity, message) => this.banner(severity, message),
        nextRequestId: (cycle) => `live-${++this.liveItem}-${cycle}`,
        liveUsage: () => this.state.liveUsage,
        alwaysAllow: this.ports.alwaysAllow,
        onEvent: (type) => (type === 'user_message' || type === 'turn_start' ? this.streamChanged.fire() : this.refreshFromStream()),
      }),
      results: this.ports.store.resultsOf(conversation.id),
      settings: () => this.ports.settings(this.ports.runTrust()),
    });
    await this.ports.lastOpened.set(conversation.id);
    this.feed = new HistoryFeed(conversation.events(), false);
    this.state = {
      conversation: { id: conversation.id, title: conversation.title() },
      items: this.feed.items,
      model: this.ports.modelName(),
      busy: false,
      liveUsage: null,
      apiKeySet: await this.ports.apiKeySet(),
      conversations: [],
      pendingApprovals: [],
      pendingElicitations: [],
      // Completions come from the tools model, which listens to this session's stream.
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
    if (this.conversation && this.conversation.events().length === 0) await this.ports.store.delete(this.conversation.id);
  }

  private refreshFromStream(): void {
    const busy = this.running !== undefined;
    const { patch, liveUsage } = this.feed.update(this.conversation.events(), busy);
    const conversation = { id: this.conversation.id, title: this.conversation.title() };
    this.post({ type: 'historyPatch', items: patch, busy, liveUsage: busy ? (this.state.liveUsage ?? liveUsage) : null, conversation, pendingElicitations: busy ? this.elicitor.pending() : [] });
    this.streamChanged.fire();
  }

  private async postConversations(): Promise<void> {
    const list = (await this.ports.store.list())
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
