import type { Attachment } from '../attachments/attachment';
import type { ToolResultContent } from '../toolSource';

/** Where a config delta came from; promotion is the only source a model can cause. */
export type DeltaSource = 'settings' | 'user' | 'promotion';

export type AssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> };

/** Why a call never ran: the user denied it, the turn was stopped first, or the tool may not run here. */
export type NotRunReason = 'denied' | 'cancelled' | 'refused';

/** What one search result committed to (RFD 108): promoted or already on, or left off by the fold. */
export type SearchResultStatus = 'usable' | 'found, unavailable';

export type TurnEndReason = 'done' | 'cancelled' | 'max_cycles' | 'error';

/**
 * One line of a conversation's append-only stream. Tool availability at any position is the
 * settings base plus the `config_delta` events up to it; nothing else is a source of truth.
 * `tools` in a delta keeps the raw `quiver.tools` shape so legacy spellings stay readable; in a
 * `settings` delta a key maps to its whole new entry (it replaces the key) or to null (removed).
 */
export type StreamEvent =
  | { readonly type: 'turn_start'; readonly at: string }
  | { readonly type: 'config_delta'; readonly source: DeltaSource; readonly tools: Readonly<Record<string, unknown>>; readonly at: string }
  | {
      readonly type: 'user_message';
      readonly text: string;
      /** `/use NAME`: the tool forced for this message's turn (offered, never recorded as a delta). */
      readonly forced?: string;
      /** What the user attached, sent before the text as one block each (absent when none, and in streams before 2026-12-01). */
      readonly attachments?: readonly Attachment[];
      readonly at: string;
    }
  | { readonly type: 'assistant_message'; readonly content: readonly AssistantBlock[]; readonly stopReason: string | null; readonly at: string }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly name: string;
      readonly content: readonly ToolResultContent[];
      readonly isError: boolean;
      /** Set when the tool never ran (absent in streams written before 2026-12-01: read as ran). */
      readonly notRun?: NotRunReason;
      /** For search_tools: each found tool and what its promotion committed to. */
      readonly found?: readonly { readonly name: string; readonly status: SearchResultStatus }[];
      /** For search_tools: matches the load budget left out, named to the model, not promoted (absent when none). */
      readonly notLoaded?: readonly string[];
      readonly at: string;
    }
  | {
      readonly type: 'usage';
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly cacheReadTokens: number;
      readonly cacheWriteTokens: number;
      readonly at: string;
    }
  | { readonly type: 'turn_end'; readonly reason: TurnEndReason; readonly message?: string; readonly at: string }
  | { readonly type: 'renamed'; readonly title: string; readonly at: string }
  /** The user dropped a message the API refused (see failedMessages.ts); `index` is its user_message's position in the stream. */
  | { readonly type: 'message_dropped'; readonly index: number; readonly at: string }
  /**
   * Regenerate: withdraws the latest assistant_message and the tool results and turn_end that
   * followed it from the transcript, then the turn continues from there. Config deltas are
   * never withdrawn, so promotions made before the restart stay.
   */
  | { readonly type: 'restart'; readonly at: string };

export type StreamEventType = StreamEvent['type'];
