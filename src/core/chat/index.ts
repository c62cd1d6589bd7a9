export { historyFromStream, HistoryFold, type ChatHistory } from './fold';
export { HistoryFeed, type FeedUpdate } from './feed';
export { eventIndexOfItem, itemIdForEvent } from './eventItems';
