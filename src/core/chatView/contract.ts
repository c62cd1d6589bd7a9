/**
 * The one protocol between the extension host and the chat webview: the messages each side may
 * send, as types only. They live in core so that the chat session, which speaks them, stays
 * pure; src/protocol re-exports them with their schemas. The host owns all state; the webview
 * renders what arrives and answers with user intents. Both directions are validated on receipt
 * (src/protocol/schemas.ts): a webview message is untrusted input to the host, and a host
 * message carries model and tool output whose shape the webview must not trust. How a message
 * changes the rendered state is state.ts.
 */
import type { AttachmentChip } from '../attachments/attachment';
import type { HistoryItem, ItemsPatch, JsonObject, ProgressView, SearchOutcome, TokenUsage, ToolOutcome, TurnSummaryItem, UserItem } from '../chat/items';
import type { ChangeSummary } from '../edits/fileChange';
import type { FieldValue, FormField } from '../elicitation/elicitationForm';

export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  /** ISO timestamp of the latest event, for ordering and display. */
  readonly updatedAt: string;
}

export interface ApprovalRequest {
  readonly callId: string;
  readonly toolName: string;
  readonly input: JsonObject;
  /** The files the call would change (each opens as a diff), and why it asks whatever its run policy; null for a call without a review. */
  readonly review: { readonly changes: readonly ChangeSummary[]; readonly mustAsk: string | null } | null;
}

/**
 * A question an MCP server asks while one of the turn's calls runs: a form (`fields`) or a link
 * to open (`url`). `promptId` tells two questions of one call apart.
 */
export type ElicitationPromptView =
  | { readonly promptId: string; readonly callId: string; readonly toolName: string; readonly server: string; readonly message: string; readonly mode: 'form'; readonly fields: readonly FormField[] }
  | { readonly promptId: string; readonly callId: string; readonly toolName: string; readonly server: string; readonly message: string; readonly mode: 'url'; readonly url: string };

/** The user's answer to a server's question: `cancel` is dismissing it without a choice. */
export type ElicitationReply =
  | { readonly action: 'accept'; readonly content: Readonly<Record<string, FieldValue>> }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

/** A tool name offered after `/use `, with a short hint such as its availability or server. */
export interface ToolCompletion {
  readonly name: string;
  readonly detail: string;
}

export interface ChatSnapshot {
  readonly conversation: { readonly id: string; readonly title: string };
  readonly items: readonly HistoryItem[];
  readonly model: string;
  readonly busy: boolean;
  /** Usage of the running turn so far; null between turns. */
  readonly liveUsage: TokenUsage | null;
  readonly apiKeySet: boolean;
  readonly conversations: readonly ConversationSummary[];
  readonly pendingApprovals: readonly ApprovalRequest[];
  readonly pendingElicitations: readonly ElicitationPromptView[];
  readonly toolCompletions: readonly ToolCompletion[];
  /** MCP servers' prompts, completed after `/` as `/server.prompt` (name is `server.prompt`). */
  readonly promptCompletions: readonly ToolCompletion[];
  /** MCP servers' resources, completed after `#resource:` (name is `server:uri`, detail its name). */
  readonly resourceCompletions: readonly ToolCompletion[];
  /** Attached to the next message (Add Selection / Add File to Chat), shown as chips above the composer. */
  readonly attachments: readonly AttachmentChip[];
}

export type ApprovalAnswer = 'allow_once' | 'always_allow' | 'deny';
export type BannerSeverity = 'error' | 'warning' | 'info';

// ---------------------------------------------------------------------------------------------
// Messages

export type HostToWebview =
  /** The whole state: when a conversation opens, the view (re)loads, or the header or completions change. */
  | { readonly type: 'snapshot'; readonly state: ChatSnapshot }
  /**
   * The stream moved on: the items that changed (the live items of a reply give way to the
   * recorded ones), and where the turn stands. Pending approvals go when the turn is over.
   */
  | {
      readonly type: 'historyPatch';
      readonly items: ItemsPatch;
      readonly busy: boolean;
      readonly liveUsage: TokenUsage | null;
      readonly conversation: { readonly id: string; readonly title: string };
      readonly pendingElicitations: readonly ElicitationPromptView[];
    }
  /** A turn began; `user` is null when it regenerates the last reply. */
  | { readonly type: 'turnStarted'; readonly user: UserItem | null }
  /** Appends to the assistant item `itemId`, creating it at the end when it does not exist. */
  | { readonly type: 'textDelta'; readonly itemId: string; readonly text: string }
  /** Appends the model's thinking to the thinking item `itemId`, creating it at the end when it does not exist. */
  | { readonly type: 'thinkingDelta'; readonly itemId: string; readonly text: string }
  | { readonly type: 'toolCallStarted'; readonly callId: string; readonly name: string; readonly input: JsonObject; readonly card: 'tool' | 'search' }
  | { readonly type: 'toolCallFinished'; readonly callId: string; readonly outcome: Exclude<ToolOutcome, { status: 'running' }> }
  | { readonly type: 'searchFinished'; readonly callId: string; readonly outcome: Exclude<SearchOutcome, { status: 'running' }> }
  | { readonly type: 'approvalRequest'; readonly request: ApprovalRequest }
  /** The approval was answered or withdrawn (turn stopped); the prompt goes away. */
  | { readonly type: 'approvalSettled'; readonly callId: string }
  | { readonly type: 'elicitationRequest'; readonly prompt: ElicitationPromptView }
  /** The question was answered, withdrawn by the server or ended by Stop; the form goes away. */
  | { readonly type: 'elicitationSettled'; readonly promptId: string }
  /** The latest progress of a running call (not an increment). */
  | { readonly type: 'toolProgress'; readonly callId: string; readonly progress: ProgressView }
  /** Cumulative usage of the running turn so far (not an increment). */
  | { readonly type: 'usage'; readonly usage: TokenUsage }
  | { readonly type: 'turnFinished'; readonly summary: TurnSummaryItem }
  | { readonly type: 'banner'; readonly severity: BannerSeverity; readonly message: string }
  | { readonly type: 'conversations'; readonly list: readonly ConversationSummary[]; readonly current: { readonly id: string; readonly title: string } }
  | { readonly type: 'toolCompletions'; readonly tools: readonly ToolCompletion[] }
  /** Put the cursor in the message box (Quiver: Focus Chat). */
  | { readonly type: 'focusComposer' }
  /** The attachments waiting for the next message changed. */
  | { readonly type: 'attachments'; readonly list: readonly AttachmentChip[] }
  /** Workspace files for `#file:QUERY`, best first (the answer to `completeFiles`). */
  | { readonly type: 'fileCompletions'; readonly query: string; readonly files: readonly string[] }
  /** A message was not sent (a mention could not be attached): its text goes back to the message box. */
  | { readonly type: 'restoreDraft'; readonly text: string };

export type WebviewToHost =
  | { readonly type: 'ready' }
  /** Raw composer text; the host parses slash commands so the webview decides nothing. */
  | { readonly type: 'sendMessage'; readonly text: string }
  | { readonly type: 'stop' }
  | { readonly type: 'openConversation'; readonly id: string }
  | { readonly type: 'renameConversation'; readonly id: string; readonly title: string }
  | { readonly type: 'deleteConversation'; readonly id: string }
  /** `reason`: the user's words for the model with a denial ('' when none). */
  | { readonly type: 'approvalAnswer'; readonly callId: string; readonly answer: ApprovalAnswer; readonly reason: string }
  | { readonly type: 'elicitationAnswer'; readonly promptId: string; readonly reply: ElicitationReply }
  /** Open file change `index` of call `callId` as a diff (waiting for approval, or applied). */
  | { readonly type: 'openChange'; readonly callId: string; readonly index: number }
  /** Undo this turn's changes, for the turn whose summary item is `itemId`. */
  | { readonly type: 'undoChanges'; readonly itemId: string }
  | { readonly type: 'regenerate' }
  /** Sends a failed message (a `user` item with status failed) again, dropping the failed copy. */
  | { readonly type: 'retryMessage'; readonly id: string }
  /** Removes a failed message from the conversation (Drop, or Edit, which puts its text back in the composer). */
  | { readonly type: 'dropMessage'; readonly id: string }
  /** The button of the missing-key notice; the host runs its own "Set API Key" command. */
  | { readonly type: 'setApiKey' }
  /** A link the user clicked; the host decides whether to open it. */
  | { readonly type: 'openLink'; readonly href: string }
  /** Takes an attachment off the next message. */
  | { readonly type: 'removeAttachment'; readonly id: string }
  /** Opens what an attachment chip (waiting or sent) came from, at its lines. */
  | { readonly type: 'openAttachment'; readonly id: string }
  /** Opens the whole of a shortened tool result of the open conversation in a read-only editor. */
  | { readonly type: 'openResult'; readonly ref: string }
  /** The user is typing `#file:QUERY`; the host answers with `fileCompletions`. */
  | { readonly type: 'completeFiles'; readonly query: string }
  /** Unload on a search card's loaded row: turn that tool off for this conversation (the host checks a search loaded it). */
  | { readonly type: 'unloadTool'; readonly name: string };

export type HostToWebviewType = HostToWebview['type'];
export type WebviewToHostType = WebviewToHost['type'];
