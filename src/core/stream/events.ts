import type { Attachment } from '../attachments/attachment';
import type { FileChange } from '../edits/fileChange';
import type { ToolResultContent } from '../tools/toolSource';

/** Where a config delta came from; promotion is the only source a model can cause. */
export type DeltaSource = 'settings' | 'user' | 'promotion';

/**
 * What a reply holds, kept exactly as the API returned it: thinking and redacted thinking are
 * sent back untouched (signature and all, in order, even with empty text), or the models with
 * preserved thinking refuse the request.
 */
export type AssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Readonly<Record<string, unknown>> }
  /**
   * A boundary the API compacted the conversation at (server-side compaction): the model reads
   * `summary` in place of everything before it. `wire` is the block exactly as returned, sent
   * back unchanged; `toolChanges` are the tools the server carried over the boundary, read from
   * it (absent when the server did not say, so nothing but the tools array survived).
   */
  | {
      readonly type: 'compaction';
      readonly summary: string | null;
      readonly toolChanges?: { readonly added: readonly string[]; readonly removed: readonly string[] };
      readonly wire: Readonly<Record<string, unknown>>;
    };

/** A tool definition exactly as a request sent it, so later requests send the same bytes. */
export interface WireTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/**
 * Why the turn loop appended a tool change (shown in the chat and the overhead breakdown):
 * `compaction` gives back, after a compaction boundary, the tools the conversation had that the
 * boundary dropped (and withdraws those it brought back); `cleared` tells the model which results
 * context editing cleared are still readable with read_result; `preload` loads the tools the
 * user's message matched confidently, before the turn's first request (quiver.search.preload).
 */
export type ToolChangeCause = 'settings' | 'use' | 'use_done' | 'server' | 'catalogue' | 'compaction' | 'cleared' | 'preload';

/** Why a call never ran: the user denied it, the turn was stopped first, or the tool may not run here. */
export type NotRunReason = 'denied' | 'cancelled' | 'refused';

/** What one search result committed to (RFD 108): promoted or already on, or left off by the fold. */
export type SearchResultStatus = 'usable' | 'found, unavailable';

/**
 * How complete what the model got of a shortened result is: `truncated` (a head, and a tail
 * where it helps, of the whole), `reference-only` (none of it, only the reference), `error` (a
 * failed call's result, shortened). A result sent whole is `complete` and carries no record.
 */
export type ShortenedStatus = 'truncated' | 'reference-only' | 'error';

/** A tool result kept whole in the conversation's result store while the model got a view of it. */
export interface KeptResult {
  /** The id read_result takes (see results/resultRefs.ts). */
  readonly ref: string;
  readonly status: ShortenedStatus;
  /** Characters of the result the view shows, of `totalChars` (its text, images as a line each). */
  readonly shownChars: number;
  readonly totalChars: number;
}

/** `cut_off`: the reply hit max_tokens or the context window; `declined`: the model refused (stop reason `refusal`). */
export type TurnEndReason = 'done' | 'cancelled' | 'max_cycles' | 'cut_off' | 'declined' | 'error';

/**
 * One line of a conversation's append-only stream. Tool availability at any position is the
 * settings base plus the `config_delta` events up to it; nothing else is a source of truth.
 * `tools` in a delta keeps the raw `quiver.tools` shape so legacy spellings stay readable; in a
 * `settings` delta a key maps to its whole new entry (it replaces the key) or to null (removed).
 */
export type StreamEvent =
  | { readonly type: 'turn_start'; readonly at: string }
  | {
      readonly type: 'config_delta';
      readonly source: DeltaSource;
      readonly tools: Readonly<Record<string, unknown>>;
      /**
       * On a promotion: made before the turn's first request from the user's message itself
       * (quiver.search.preload), not by a search_tools call (absent otherwise).
       */
      readonly preload?: true;
      readonly at: string;
    }
  | {
      readonly type: 'user_message';
      readonly text: string;
      /** `/use NAME`: the tool forced for this message's turn (offered, never recorded as a delta). */
      readonly forced?: string;
      /** What the user attached, sent before the text as one block each (absent when none, and in streams before 2026-12-01). */
      readonly attachments?: readonly Attachment[];
      readonly at: string;
    }
  | {
      readonly type: 'assistant_message';
      readonly content: readonly AssistantBlock[];
      readonly stopReason: string | null;
      /** The API's message id (absent in streams before 2026-12-01, and on a reply cut short). */
      readonly messageId?: string;
      /**
       * The reply to an on-demand compaction request (`/compact`): its compaction block is sent back
       * first in `messages`, in place of everything before it (absent otherwise).
       */
      readonly onDemand?: true;
      readonly at: string;
    }
  /**
   * Quiver's own compaction, on a model without the server's: the model wrote `summary` of
   * everything before this point in one request. The wire starts a new segment here (system and
   * tools as first sent; the summary and the attachments in force open its messages); the
   * transcript the user sees keeps everything.
   */
  | { readonly type: 'compacted'; readonly summary: string; readonly attachments?: readonly Attachment[]; readonly at: string }
  /**
   * Definitions the wire sent for the first time: `upFront` at the conversation's first request
   * (the `tools` array as first sent, never changed after), or deferred (appended to `tools`
   * with defer_loading, loaded later by a reference or a tool_addition). A definition once
   * recorded is what every later request of the conversation sends under that name.
   */
  | { readonly type: 'wire_tools'; readonly placement: 'upFront' | 'deferred'; readonly tools: readonly WireTool[]; readonly at: string }
  /** The system prompt as the first request sent it; later changes are appended as `wire_change` text. */
  | { readonly type: 'wire_system'; readonly text: string; readonly at: string }
  /**
   * A change of what the model is offered, appended to the conversation (a `role: "system"`
   * message where the model takes one): tools added or removed, and text for the model.
   */
  | {
      readonly type: 'wire_change';
      readonly cause: ToolChangeCause;
      readonly added: readonly string[];
      readonly removed: readonly string[];
      readonly text: string;
      /** For `catalogue`: the whole system prompt as it now stands, which the text announces (what later requests compare against). */
      readonly systemPrompt?: string;
      readonly at: string;
    }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly name: string;
      readonly content: readonly ToolResultContent[];
      readonly isError: boolean;
      /** Set when the tool never ran (absent in streams written before 2026-12-01: read as ran). */
      readonly notRun?: NotRunReason;
      /**
       * Set when the call was running and the user stopped it before it returned: it may have had
       * effects, so it is not `notRun` (absent otherwise, and in older streams, which recorded such a
       * call as `notRun: 'cancelled'`).
       */
      readonly stopped?: true;
      /** For search_tools: each found tool and what its promotion committed to. */
      readonly found?: readonly { readonly name: string; readonly status: SearchResultStatus }[];
      /** For search_tools: matches the load budget left out, named to the model, not promoted (absent when none). */
      readonly notLoaded?: readonly string[];
      /**
       * For search_tools: matches that were loaded (offered) already, so not among the results the
       * RFD lets it promote; named to the model as callable (absent when none, and in older streams).
       */
      readonly alreadyLoaded?: readonly string[];
      /** For search_tools: matches among the known tools of servers waiting for sign-in, named with what the user must do (absent when none, and in older streams). */
      readonly signInRequired?: readonly string[];
      /** For search_tools: servers waiting for sign-in whose tools are not known, so not searched (absent when none, and in older streams). */
      readonly waitingForSignIn?: readonly string[];
      /** For search_tools: servers still starting, whose tools were not listed yet, so not searched (absent when none, and in older streams). */
      readonly serversStarting?: readonly string[];
      /** Set when `content` is a view of a longer result kept whole (absent for results sent whole, and in streams before 2026-12-01). */
      readonly kept?: KeptResult;
      /** Files the call changed, with their text before and after (absent when none): the turn's checkpoint. */
      readonly changes?: readonly FileChange[];
      readonly at: string;
    }
  | {
      readonly type: 'usage';
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly cacheReadTokens: number;
      readonly cacheWriteTokens: number;
      /** Of `cacheWriteTokens`, those written with the 1-hour TTL (absent when none, and in streams before 2026-12-02). */
      readonly cacheWrite1hTokens?: number;
      /** The API's diagnosis of a prompt-cache miss against the previous request, in words (absent when none). */
      readonly cacheMiss?: string;
      /** What context editing cleared from this request before the model read it (absent when nothing). */
      readonly cleared?: { readonly toolUses: number; readonly inputTokens: number };
      /** The compaction this request ran: the tokens it summarized and the summary's length (absent when none). */
      readonly compacted?: { readonly inputTokens: number; readonly outputTokens: number };
      readonly at: string;
    }
  /** `cause`: an error's cause in a few words ("could not reach http://…"), which a message that was not sent is labelled with. */
  | { readonly type: 'turn_end'; readonly reason: TurnEndReason; readonly message?: string; readonly cause?: string; readonly at: string }
  | { readonly type: 'renamed'; readonly title: string; readonly at: string }
  /** The user dropped a message the API refused (see failedMessages.ts); `index` is its user_message's position in the stream. */
  | { readonly type: 'message_dropped'; readonly index: number; readonly at: string }
  /**
   * Regenerate: withdraws the latest assistant_message and the tool results and turn_end that
   * followed it from the transcript, then the turn continues from there. Config deltas are
   * never withdrawn, so promotions made before the restart stay.
   */
  | { readonly type: 'restart'; readonly at: string }
  /**
   * The user undid the file changes of the calls `toolUseIds` (Undo this turn's changes):
   * `restored` lists the files put back as they were, `skipped` those left alone and why (changed
   * since). The model is told at the next message.
   */
  | {
      readonly type: 'changes_undone';
      readonly toolUseIds: readonly string[];
      readonly restored: readonly string[];
      readonly skipped: readonly { readonly label: string; readonly why: string }[];
      readonly at: string;
    };

export type StreamEventType = StreamEvent['type'];
