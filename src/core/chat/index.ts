export { historyFromStream, HistoryFold, type ChatHistory } from './fold';
export { HistoryFeed, type FeedUpdate } from './feed';
export { eventIndexOfItem, itemIdForEvent } from './eventItems';
export { addUsage, applyItemsPatch, EMPTY_USAGE, type FoundStatus, type FoundTool, type KeptOutput, type ThinkingItem, type TurnChanges, type HistoryItem, type ItemsPatch, type JsonObject, type OutputPart, type ProgressView, type SearchOutcome, type TokenUsage, type ToolOutcome, type TurnSummaryItem, type UserItem } from './items';
