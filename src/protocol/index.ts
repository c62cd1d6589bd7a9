/**
 * The host↔webview protocol as both ends import it: the contract's types and the reducer (from
 * core/chatView, where the chat session that speaks them lives), the schemas each end parses
 * what it receives with, and the few core functions the webview runs.
 */
export * from '../core/chatView';
export { chatSnapshotSchema, hostToWebviewSchema, parseChatSnapshot, parseHostToWebview, parseWebviewToHost, webviewToHostSchema, type ParseResult } from './schemas';
