/**
 * The one protocol between the extension host and the chat webview. The host owns all state;
 * the webview renders what arrives here and answers with user intents. Both directions are
 * validated on receipt with the zod schemas below, because a webview message is untrusted input
 * to the host and a host message carries model and tool output that the webview must not trust
 * to have a particular shape.
 *
 * `applyHostMessage` (protocolState.ts) is the single definition of how a message changes the rendered state:
 * the webview renders with it, and the host may keep a mirror with it so that `snapshot()` stays
 * exactly what the webview shows (a reload mid-turn then loses nothing).
 */
import * as z from 'zod';
import type { AttachmentChip } from './core/attachments/attachment';
import type { ChangeSummary } from './core/edits/fileChange';
import type { FieldValue, FormField } from './core/elicitation/elicitationForm';
import { RESULT_REF } from './core/results/resultRefs';
import type { FoundTool, ItemsPatch, HistoryItem, JsonObject, OutputPart, ProgressView, SearchOutcome, TokenUsage, ToolOutcome, TurnSummaryItem, UserItem } from './core/chatItems';

// ---------------------------------------------------------------------------------------------
// Shared shapes: the chat items come from src/core (the protocol carries them; core never imports the protocol)

export type { FoundStatus, FoundTool, HistoryItem, ItemsPatch, JsonObject, KeptOutput, OutputPart, ProgressView, SearchOutcome, ThinkingItem, TokenUsage, ToolOutcome, TurnSummaryItem, UserItem } from './core/chatItems';
export type { ChoiceOption, FieldValue, FormAnswer, FormField } from './core/elicitation/elicitationForm';
export { answerProblems, initialAnswer } from './core/elicitation/elicitationForm';
export type { TurnEndReason } from './core/stream/events';
export type { AttachmentChip, AttachmentKind, LineRange } from './core/attachments/attachment';
export type { ChangeSummary } from './core/edits/fileChange';
export type { TurnChanges } from './core/chatItems';
export { SLASH_COMMANDS } from './core/slashCommandList';
export { fileMention, resourceMention } from './core/attachments/mentions';
export { addUsage, EMPTY_USAGE } from './core/chatItems';
export { formatTokens } from './core/toolOverview';
export { applyHostMessage } from './protocolState';

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

// ---------------------------------------------------------------------------------------------
// Schemas. Each is annotated with the hand-written type so the two cannot drift apart.

const id = z.string().min(1).max(512);
const count = z.number().int().nonnegative();
const jsonObject: z.ZodType<JsonObject> = z.record(z.string(), z.unknown());

const tokenUsage: z.ZodType<TokenUsage> = z.strictObject({ input: count, output: count, cacheRead: count, cacheWrite: count });

const outputPart: z.ZodType<OutputPart> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: z.string() }),
  z.strictObject({ kind: z.literal('image'), mimeType: z.string(), data: z.string() }),
]);
const outputParts = z.array(outputPart);

const changeSummary: z.ZodType<ChangeSummary> = z.strictObject({
  label: z.string(),
  kind: z.enum(['edit', 'create', 'delete', 'rename']),
  added: z.number().int().min(0),
  removed: z.number().int().min(0),
  fromLabel: z.string().nullable(),
});
const keptOutput = z.strictObject({ ref: z.string().regex(RESULT_REF), shownChars: count, totalChars: count });
const toolDone = z.strictObject({ status: z.literal('done'), output: outputParts, kept: keptOutput.optional(), changes: z.array(changeSummary).optional() });
const toolError = z.strictObject({ status: z.literal('error'), output: outputParts, kept: keptOutput.optional() });
const toolNotRun = z.strictObject({ status: z.enum(['denied', 'refused']), output: outputParts });
const cancelled = z.strictObject({ status: z.literal('cancelled') });
const toolStopped = z.strictObject({ status: z.literal('stopped'), output: outputParts });
const progressView: z.ZodType<ProgressView> = z.strictObject({ progress: z.number(), total: z.number().nullable(), message: z.string().nullable() });
const running = z.strictObject({ status: z.literal('running'), progress: progressView.optional() });

const finishedToolOutcome = z.union([toolDone, toolError, toolNotRun, cancelled, toolStopped]);
const toolOutcome: z.ZodType<ToolOutcome> = z.union([running, toolDone, toolError, toolNotRun, cancelled, toolStopped]);

const foundTool: z.ZodType<FoundTool> = z.strictObject({
  name: z.string(),
  status: z.enum(['loaded', 'unloaded', 'already on', 'not loaded', 'unavailable', 'sign in required']),
  tokens: count.nullable(),
});
const searchDone = z.strictObject({ status: z.literal('done'), found: z.array(foundTool), waitingForSignIn: z.array(z.string()).optional() });
const finishedSearchOutcome = z.discriminatedUnion('status', [searchDone, toolError, cancelled]);
const searchOutcome: z.ZodType<SearchOutcome> = z.discriminatedUnion('status', [running, searchDone, toolError, cancelled]);

const turnEndReason = z.enum(['done', 'cancelled', 'max_cycles', 'cut_off', 'declined', 'error']);

const lineRange = z.strictObject({ start: z.number().int().min(1), end: z.number().int().min(1) });
const attachmentChip: z.ZodType<AttachmentChip> = z.strictObject({ id, kind: z.enum(['selection', 'file', 'problems', 'resource']), label: z.string(), path: z.string(), range: lineRange.nullable() });
const attachmentChips = z.array(attachmentChip);
const userItem = z.strictObject({ kind: z.literal('user'), id, text: z.string(), forced: z.string().nullable(), attachments: attachmentChips, status: z.enum(['sent', 'failed']), cause: z.string().optional() });
const turnSummaryItem = z.strictObject({
  kind: z.literal('turn_summary'),
  id,
  reason: turnEndReason,
  message: z.string().nullable(),
  model: z.string().nullable(),
  usage: tokenUsage.nullable(),
  changes: z.strictObject({ files: z.array(changeSummary), undone: z.boolean() }).nullable(),
});

const historyItem: z.ZodType<HistoryItem> = z.discriminatedUnion('kind', [
  userItem,
  z.strictObject({ kind: z.literal('assistant'), id, markdown: z.string() }),
  z.strictObject({ kind: z.literal('thinking'), id, text: z.string(), redacted: z.boolean() }),
  z.strictObject({ kind: z.literal('tool_call'), id, name: z.string(), input: jsonObject, outcome: toolOutcome }),
  z.strictObject({ kind: z.literal('search'), id, input: jsonObject, outcome: searchOutcome, preload: z.literal(true).optional() }),
  z.strictObject({ kind: z.literal('compacted'), id, summary: z.string().nullable() }),
  turnSummaryItem,
]);

const conversationRef = z.strictObject({ id, title: z.string() });
const conversationSummary: z.ZodType<ConversationSummary> = z.strictObject({ id, title: z.string(), updatedAt: z.string() });
const approvalRequest: z.ZodType<ApprovalRequest> = z.strictObject({
  callId: id,
  toolName: z.string(),
  input: jsonObject,
  review: z.strictObject({ changes: z.array(changeSummary), mustAsk: z.string().nullable() }).nullable(),
});
const toolCompletion: z.ZodType<ToolCompletion> = z.strictObject({ name: z.string(), detail: z.string() });

const fieldBase = { key: z.string(), label: z.string(), description: z.string().optional(), required: z.boolean() };
const choiceOption = z.strictObject({ value: z.string(), label: z.string() });
const optionalNumber = z.number().optional();
const formField: z.ZodType<FormField> = z.discriminatedUnion('kind', [
  z.strictObject({ ...fieldBase, kind: z.literal('text'), default: z.string().optional(), minLength: optionalNumber, maxLength: optionalNumber, format: z.string().optional() }),
  z.strictObject({ ...fieldBase, kind: z.literal('number'), integer: z.boolean(), default: optionalNumber, minimum: optionalNumber, maximum: optionalNumber }),
  z.strictObject({ ...fieldBase, kind: z.literal('boolean'), default: z.boolean().optional() }),
  z.strictObject({ ...fieldBase, kind: z.literal('choice'), options: z.array(choiceOption), default: z.string().optional() }),
  z.strictObject({ ...fieldBase, kind: z.literal('choices'), options: z.array(choiceOption), default: z.array(z.string()).optional(), minItems: optionalNumber, maxItems: optionalNumber }),
]);
const promptBase = { promptId: id, callId: id, toolName: z.string(), server: z.string(), message: z.string() };
const elicitationPrompt: z.ZodType<ElicitationPromptView> = z.discriminatedUnion('mode', [
  z.strictObject({ ...promptBase, mode: z.literal('form'), fields: z.array(formField) }),
  z.strictObject({ ...promptBase, mode: z.literal('url'), url: z.string() }),
]);
const fieldValue: z.ZodType<FieldValue> = z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1_000)]);
const elicitationReply: z.ZodType<ElicitationReply> = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('accept'), content: z.record(z.string().max(1_000), fieldValue) }),
  z.strictObject({ action: z.literal('decline') }),
  z.strictObject({ action: z.literal('cancel') }),
]);

export const chatSnapshotSchema: z.ZodType<ChatSnapshot> = z.strictObject({
  conversation: conversationRef,
  items: z.array(historyItem),
  model: z.string(),
  busy: z.boolean(),
  liveUsage: tokenUsage.nullable(),
  apiKeySet: z.boolean(),
  conversations: z.array(conversationSummary),
  pendingApprovals: z.array(approvalRequest),
  pendingElicitations: z.array(elicitationPrompt),
  toolCompletions: z.array(toolCompletion),
  promptCompletions: z.array(toolCompletion),
  resourceCompletions: z.array(toolCompletion),
  attachments: attachmentChips,
});

const itemsPatch: z.ZodType<ItemsPatch> = z.strictObject({
  keep: count,
  changed: z.array(z.strictObject({ index: count, item: historyItem })),
  tail: z.array(historyItem),
});

export const hostToWebviewSchema: z.ZodType<HostToWebview> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('snapshot'), state: chatSnapshotSchema }),
  z.strictObject({
    type: z.literal('historyPatch'),
    items: itemsPatch,
    busy: z.boolean(),
    liveUsage: tokenUsage.nullable(),
    conversation: conversationRef,
    pendingElicitations: z.array(elicitationPrompt),
  }),
  z.strictObject({ type: z.literal('turnStarted'), user: userItem.nullable() }),
  z.strictObject({ type: z.literal('textDelta'), itemId: id, text: z.string() }),
  z.strictObject({ type: z.literal('thinkingDelta'), itemId: id, text: z.string() }),
  z.strictObject({ type: z.literal('toolCallStarted'), callId: id, name: z.string(), input: jsonObject, card: z.enum(['tool', 'search']) }),
  z.strictObject({ type: z.literal('toolCallFinished'), callId: id, outcome: finishedToolOutcome }),
  z.strictObject({ type: z.literal('searchFinished'), callId: id, outcome: finishedSearchOutcome }),
  z.strictObject({ type: z.literal('approvalRequest'), request: approvalRequest }),
  z.strictObject({ type: z.literal('approvalSettled'), callId: id }),
  z.strictObject({ type: z.literal('elicitationRequest'), prompt: elicitationPrompt }),
  z.strictObject({ type: z.literal('elicitationSettled'), promptId: id }),
  z.strictObject({ type: z.literal('toolProgress'), callId: id, progress: progressView }),
  z.strictObject({ type: z.literal('usage'), usage: tokenUsage }),
  z.strictObject({ type: z.literal('turnFinished'), summary: turnSummaryItem }),
  z.strictObject({ type: z.literal('banner'), severity: z.enum(['error', 'warning', 'info']), message: z.string() }),
  z.strictObject({ type: z.literal('conversations'), list: z.array(conversationSummary), current: conversationRef }),
  z.strictObject({ type: z.literal('toolCompletions'), tools: z.array(toolCompletion) }),
  z.strictObject({ type: z.literal('focusComposer') }),
  z.strictObject({ type: z.literal('attachments'), list: attachmentChips }),
  z.strictObject({ type: z.literal('fileCompletions'), query: z.string(), files: z.array(z.string()) }),
  z.strictObject({ type: z.literal('restoreDraft'), text: z.string() }),
]);

/** Limits keep a compromised or buggy webview from handing the host absurd payloads. */
const MAX_MESSAGE_CHARS = 200_000;
const MAX_TITLE_CHARS = 200;
const MAX_HREF_CHARS = 8_192;
const MAX_QUERY_CHARS = 1_000;
const MAX_REASON_CHARS = 2_000;

export const webviewToHostSchema: z.ZodType<WebviewToHost> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('sendMessage'), text: z.string().max(MAX_MESSAGE_CHARS) }),
  z.strictObject({ type: z.literal('stop') }),
  z.strictObject({ type: z.literal('openConversation'), id }),
  z.strictObject({ type: z.literal('renameConversation'), id, title: z.string().trim().min(1).max(MAX_TITLE_CHARS) }),
  z.strictObject({ type: z.literal('deleteConversation'), id }),
  z.strictObject({ type: z.literal('approvalAnswer'), callId: id, answer: z.enum(['allow_once', 'always_allow', 'deny']), reason: z.string().max(MAX_REASON_CHARS) }),
  z.strictObject({ type: z.literal('elicitationAnswer'), promptId: id, reply: elicitationReply }),
  z.strictObject({ type: z.literal('openChange'), callId: id, index: count }),
  z.strictObject({ type: z.literal('undoChanges'), itemId: id }),
  z.strictObject({ type: z.literal('regenerate') }),
  z.strictObject({ type: z.literal('retryMessage'), id }),
  z.strictObject({ type: z.literal('dropMessage'), id }),
  z.strictObject({ type: z.literal('setApiKey') }),
  z.strictObject({ type: z.literal('openLink'), href: z.string().min(1).max(MAX_HREF_CHARS) }),
  z.strictObject({ type: z.literal('removeAttachment'), id }),
  z.strictObject({ type: z.literal('openAttachment'), id }),
  z.strictObject({ type: z.literal('openResult'), ref: z.string().regex(RESULT_REF) }),
  z.strictObject({ type: z.literal('completeFiles'), query: z.string().max(MAX_QUERY_CHARS) }),
  z.strictObject({ type: z.literal('unloadTool'), name: id }),
]);

export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  const r = schema.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: z.prettifyError(r.error) };
}

export function parseHostToWebview(raw: unknown): ParseResult<HostToWebview> {
  return parseWith(hostToWebviewSchema, raw);
}

export function parseWebviewToHost(raw: unknown): ParseResult<WebviewToHost> {
  return parseWith(webviewToHostSchema, raw);
}

export function parseChatSnapshot(raw: unknown): ParseResult<ChatSnapshot> {
  return parseWith(chatSnapshotSchema, raw);
}
