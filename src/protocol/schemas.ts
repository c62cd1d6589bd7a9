/**
 * The protocol's zod schemas and parsers (contract.ts holds the types). Each schema is annotated
 * with its hand-written type so the two cannot drift apart; both ends parse what they receive.
 */
import * as z from 'zod';
import { type AttachmentChip, type ChangeSummary, type FieldValue, type FormField, RESULT_REF, type FoundTool, type ItemsPatch, type HistoryItem, type JsonObject, type OutputPart, type ProgressView, type SearchOutcome, type TokenUsage, type ToolOutcome, type ApprovalRequest, type ChatSnapshot, type ConversationSummary, type ElicitationPromptView, type ElicitationReply, type HostToWebview, type ToolCompletion, type WebviewToHost } from '../core/chatView';

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
const searchDone = z.strictObject({ status: z.literal('done'), found: z.array(foundTool), waitingForSignIn: z.array(z.string()).optional(), serversStarting: z.array(z.string()).optional() });
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
