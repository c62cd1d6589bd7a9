export { type Conversation } from './conversation';
export { ConversationStore } from './conversationStore';
export { type AssistantBlock, type StreamEvent, type TurnEndReason, type WireTool } from './events';
export { retryableMessage } from './failedMessages';
