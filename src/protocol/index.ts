export type * from './contract';
export { chatSnapshotSchema, hostToWebviewSchema, parseChatSnapshot, parseHostToWebview, parseWebviewToHost, webviewToHostSchema, type ParseResult } from './schemas';
export { applyHostMessage } from './state';
// What the webview runs from core (it imports nothing but this protocol): form answers, the slash
// command list, mention text, usage sums and token figures, each defined once in core.
export { answerProblems, initialAnswer, SLASH_COMMANDS, fileMention, resourceMention, addUsage, EMPTY_USAGE, formatTokens } from '../core/chatView';
