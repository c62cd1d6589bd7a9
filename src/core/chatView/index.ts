/**
 * The part of core the chat webview may name or run, through src/protocol: the shapes the
 * protocol carries and the few functions both ends share. Every module re-exported here is
 * browser-safe (no node modules), which the other folders' faces are not (they also export the
 * stores that read and write files); the webview's own type-check and bundle hold that.
 */
export type { AttachmentChip, AttachmentKind, LineRange } from '../attachments/attachment';
export { fileMention, resourceMention } from '../attachments/mentions';
export {
  addUsage, applyItemsPatch, EMPTY_USAGE, type FoundStatus, type FoundTool, type HistoryItem, type ItemsPatch, type JsonObject, type KeptOutput,
  type OutputPart, type ProgressView, type SearchOutcome, type ThinkingItem, type TokenUsage, type ToolOutcome, type TurnChanges,
  type TurnSummaryItem, type UserItem,
} from '../chat/items';
export type { ChangeSummary } from '../edits/fileChange';
export { answerProblems, initialAnswer, type ChoiceOption, type FieldValue, type FormAnswer, type FormField } from '../elicitation/elicitationForm';
export { formatTokens } from '../overhead/toolOverview';
export { RESULT_REF } from '../results/resultRefs';
export { SLASH_COMMANDS } from '../slashCommands/list';
export type { TurnEndReason } from '../stream/events';
export type * from './contract';
export { applyHostMessage } from './state';
