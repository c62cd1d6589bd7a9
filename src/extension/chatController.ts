import type * as vscode from 'vscode';
import type { Attachment } from '../core/attachments';
import type { ApprovalAnswer, ChatSnapshot, ElicitationReply, HostToWebview } from '../protocol';

export type { ApprovalAnswer, ChatSnapshot, HostToWebview } from '../protocol';

/** A message for the model, after slash-command parsing. */
export interface ChatSendRequest {
  readonly text: string;
  /** `/use NAME`: the tool to offer for this message's turn; null for a plain message. */
  readonly forcedTool: string | null;
  /** What the message's `#` mentions resolved to; the attachments waiting as chips go first. */
  readonly attachments: readonly Attachment[];
}

/**
 * What the chat view needs from the rest of the extension. The provider validates every webview
 * message, parses slash commands, asks for confirmation where a modal is needed, and then calls
 * exactly one method here; it never holds chat state itself.
 *
 * Invariants the implementation keeps:
 * - `snapshot()` is what the webview would show after applying every message posted so far
 *   (keep a mirror with `applyHostMessage` from src/protocol; a `HistoryFeed` from
 *   src/core/chat says what each event changed). The provider posts it on every `ready`.
 * - Every change the webview should show is posted through `onDidPost` listeners; posting to a
 *   hidden or disposed view is the provider's concern, not the controller's.
 * - Methods that start work return once the intent is accepted (a turn runs in the background);
 *   their rejections are reported by the provider as an error banner.
 */
export interface ChatController {
  snapshot(): ChatSnapshot;
  onDidPost(listener: (msg: HostToWebview) => void): vscode.Disposable;

  /** Starts a turn. When a turn is already running, post a warning banner instead. */
  sendMessage(request: ChatSendRequest): Promise<void>;
  /** `/tools`: show the tools and their availability (e.g. reveal the Tools view or post a banner). */
  showTools(): Promise<void>;
  /** `/set KEY=VALUE`: raw strings; the controller validates the key and value and reports errors. */
  setOption(key: string, value: string): Promise<void>;
  /** Cancels the running turn, if any; pending approvals are settled as denied. */
  stop(): void;
  openConversation(id: string): Promise<void>;
  renameConversation(id: string, title: string): Promise<void>;
  /** Called after the user confirmed the deletion. */
  deleteConversation(id: string): Promise<void>;
  /** `reason`: the user's words for the model with a denial ('' when none). */
  answerApproval(callId: string, answer: ApprovalAnswer, reason: string): void;
  /** Opens file change `index` of call `callId` as a diff. */
  openChange(callId: string, index: number): Promise<void>;
  /** Undo this turn's changes, for the turn whose summary item is `summaryItemId`. */
  undoChanges(summaryItemId: string): Promise<void>;
  /** The user's reply to a server's question (a form or a link) asked during a call; a stale prompt is ignored. */
  answerElicitation(promptId: string, reply: ElicitationReply): Promise<void>;
  /** Re-runs the last reply (a `restart` stream event); post a fresh snapshot, then `turnStarted` with user null. */
  regenerate(): Promise<void>;
  /**
   * Unload on a search card: turns a tool a search loaded off for this conversation (a `user`
   * delta, so the next request withdraws it); a banner when no search card shows it loaded.
   */
  unloadTool(name: string): Promise<void>;
  /** Sends a failed message again (its failed copy is dropped); a warning banner when it is not one. */
  retryMessage(itemId: string): Promise<void>;
  /** Drops a failed message from the conversation (Drop, or Edit after its text went back to the composer). */
  dropMessage(itemId: string): Promise<void>;
  /** The "Set API Key" button of the missing-key notice: run the `Quiver: Set API Key` command. */
  setApiKey(): Promise<void>;
  /** Adds attachments to the next message (shown as chips until it is sent). */
  attach(attachments: readonly Attachment[]): void;
  removeAttachment(id: string): void;
  /** A waiting attachment, or one recorded in the open conversation, for opening what it came from. */
  findAttachment(id: string): Attachment | undefined;
  /** Opens the whole of a result the open conversation kept (a tool card's Open full result); a banner when it kept none under `ref`. */
  openResult(ref: string): Promise<void>;
}
