import type { RunTrust } from '../availability';
import type { ModelClient } from '../models';
import type { ConversationStore, StreamEvent } from '../stream';
import type { ToolSource } from '../tools';
import type { BuiltinTools, TurnSettings } from '../turn';

export type ChangesUndone = Extract<StreamEvent, { type: 'changes_undone' }>;

/** What a chat session needs from its host: stores and sources, the user's settings, and the editor's own actions. */
export interface ChatSessionPorts {
  readonly store: ConversationStore;
  readonly source: ToolSource;
  readonly builtins: BuiltinTools;
  /** The model client a conversation's turns use (the configured key and endpoint). */
  readonly modelClient: () => ModelClient;
  /** The turn settings as the user wrote them, read at each turn, given the user's own approvals. */
  readonly settings: (trust: RunTrust) => TurnSettings;
  /** Where the user's own approvals come from (see RunApprovals). */
  readonly runTrust: () => RunTrust;
  /** The configured model, for the chat's header. */
  readonly modelName: () => string;
  readonly apiKeySet: () => Promise<boolean>;
  /** The conversation open last (kept by the workspace), to open again at start. */
  readonly lastOpened: { readonly get: () => string | undefined; readonly set: (id: string) => Promise<void> };
  readonly log: { readonly error: (message: string) => void; readonly warn: (message: string) => void };
  /** The user chose "Always allow": record it where the user's own approvals live. */
  readonly alwaysAllow: (tool: string) => Promise<unknown>;
  /** Opens the whole of a result `conversation` kept as `ref`; false when it kept none. */
  readonly openResult: (conversation: string, ref: string) => Promise<boolean>;
  /** Opens and undoes the file changes of the editor's tools. */
  readonly changes: {
    readonly open: (events: readonly StreamEvent[], callId: string, index: number) => Promise<unknown>;
    readonly undo: (events: readonly StreamEvent[], summaryItemId: string) => Promise<ChangesUndone | undefined>;
  };
  /** Shows a change waiting for approval as a diff beside the chat, and closes it once answered. */
  readonly proposals: { readonly show: (callId: string) => void; readonly close: (callId: string) => void };
  /** Opens an http(s) link a server asked for and the user accepted. */
  readonly openExternal: (href: string) => Promise<unknown>;
}
