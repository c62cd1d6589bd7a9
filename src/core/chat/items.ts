import type { AttachmentChip } from '../attachments/attachment';
import type { ChangeSummary } from '../edits/fileChange';
import type { TurnEndReason } from '../stream/events';

/**
 * The chat's items as the webview renders them, derived from a conversation's stream
 * (fold.ts). They live in core because the stream mapping is core logic; the webview
 * protocol (src/protocol) carries them and validates them on receipt.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export interface TokenUsage {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** A piece of tool output. Always rendered as text or a data: image, never as HTML. */
export type OutputPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: string };

/** A result the model got a view of, kept whole: how much it showed, and the ref that opens the whole. */
export interface KeptOutput {
  readonly ref: string;
  readonly shownChars: number;
  readonly totalChars: number;
}

/** Progress a running call's server reported last: `total` and `message` when it gave them. */
export interface ProgressView {
  readonly progress: number;
  readonly total: number | null;
  readonly message: string | null;
}

export type ToolOutcome =
  | { readonly status: 'running'; readonly progress?: ProgressView }
  /** `changes`: the files the call changed (its card lists them, each opening as a diff). */
  | { readonly status: 'done'; readonly output: readonly OutputPart[]; readonly kept?: KeptOutput; readonly changes?: readonly ChangeSummary[] }
  | { readonly status: 'error'; readonly output: readonly OutputPart[]; readonly kept?: KeptOutput }
  /** It never ran: the user denied it (`denied`), or it may not run here (`refused`); `output` says why, as the model read it. */
  | { readonly status: 'denied' | 'refused'; readonly output: readonly OutputPart[] }
  /** The turn was stopped before the call started: it never ran. */
  | { readonly status: 'cancelled' }
  /** The call was running when the user stopped the turn: it may have had effects; `output` is what the model read. */
  | { readonly status: 'stopped'; readonly output: readonly OutputPart[] };

/**
 * What one search did with one tool it matched: the one status of its row on the search card.
 * `loaded`: this search promoted it, so its definition goes with every later request;
 * `unloaded`: this search promoted it and it has been turned off for the conversation since;
 * `already on`: usable, but on before this search (an earlier search of the same step promoted it,
 * or it was loaded before the step: the search named it as already loaded, without promoting it);
 * `not loaded`: named to the model, left out by relevance or the load budget (a search for its
 * exact name loads it); `unavailable`: found, but turned off in the same step; `sign in required`:
 * a tool of a server waiting for sign-in, named to the model with what the user must do.
 */
export type FoundStatus = 'loaded' | 'unloaded' | 'already on' | 'not loaded' | 'unavailable' | 'sign in required';

export interface FoundTool {
  readonly name: string;
  readonly status: FoundStatus;
  /** Estimated tokens of its definition as the wire sent it (src/core/overhead/tokens.ts), for a tool this search loaded; null otherwise. */
  readonly tokens: number | null;
}

export type SearchOutcome =
  | { readonly status: 'running' }
  /** `found`: every match, the ones the search made usable or left unavailable first, then those it named as not loaded, each in rank order. */
  /**
   * `waitingForSignIn`: servers waiting for sign-in whose tools are not known, so not searched;
   * `serversStarting`: servers still starting, whose tools were not listed yet, so not searched (each absent when none).
   */
  | { readonly status: 'done'; readonly found: readonly FoundTool[]; readonly waitingForSignIn?: readonly string[]; readonly serversStarting?: readonly string[] }
  | { readonly status: 'error'; readonly output: readonly OutputPart[] }
  | { readonly status: 'cancelled' };

export type HistoryItem =
  /**
   * `failed`: the request failed before any reply; it is not sent again unless retried. `cause`
   * says why in a few words ("could not reach http://…", "the API refused it (400 …)").
   */
  | { readonly kind: 'user'; readonly id: string; readonly text: string; readonly forced: string | null; readonly attachments: readonly AttachmentChip[]; readonly status: 'sent' | 'failed'; readonly cause?: string }
  /** Markdown from the model; the webview sanitizes it before it reaches the DOM. */
  | { readonly kind: 'assistant'; readonly id: string; readonly markdown: string }
  /**
   * The model's thinking before or between its replies, shown as a collapsible "Thinking" section.
   * `text` is markdown from the model (sanitized like an assistant item; never empty unless
   * `redacted`); `redacted`: part of it came as redacted_thinking, which has no text to show.
   */
  | { readonly kind: 'thinking'; readonly id: string; readonly text: string; readonly redacted: boolean }
  | { readonly kind: 'tool_call'; readonly id: string; readonly name: string; readonly input: JsonObject; readonly outcome: ToolOutcome }
  /** `preload`: not a search_tools call but the tools loaded for the user's message before its first request (quiver.search.preload). */
  | { readonly kind: 'search'; readonly id: string; readonly input: JsonObject; readonly outcome: SearchOutcome; readonly preload?: true }
  /**
   * Where the conversation was compacted: the model reads `summary` (markdown from the model,
   * sanitized like an assistant item; null when the compaction produced none) in place of
   * everything above, which the transcript keeps for the user.
   */
  | { readonly kind: 'compacted'; readonly id: string; readonly summary: string | null }
  | {
      readonly kind: 'turn_summary';
      readonly id: string;
      readonly reason: TurnEndReason;
      readonly message: string | null;
      readonly model: string | null;
      readonly usage: TokenUsage | null;
      /** The files the turn's calls changed, and whether the user undid them since; null when it changed none. */
      readonly changes: TurnChanges | null;
    };

export interface TurnChanges {
  readonly files: readonly ChangeSummary[];
  readonly undone: boolean;
}

export type UserItem = Extract<HistoryItem, { kind: 'user' }>;
export type TurnSummaryItem = Extract<HistoryItem, { kind: 'turn_summary' }>;
export type ThinkingItem = Extract<HistoryItem, { kind: 'thinking' }>;

export const EMPTY_USAGE: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

/**
 * What changed in a chat's items: the first `keep` stay (but for `changed`, each replacing the
 * item of its id at `index`), and `tail` replaces all after them, such as items shown live while
 * a reply streamed, which the recorded ones take the place of.
 */
export interface ItemsPatch {
  readonly keep: number;
  readonly changed: readonly { readonly index: number; readonly item: HistoryItem }[];
  readonly tail: readonly HistoryItem[];
}

/** `items` with `patch` applied; the items it leaves alone keep their identity. */
export function applyItemsPatch(items: readonly HistoryItem[], patch: ItemsPatch): HistoryItem[] {
  const next = items.slice(0, patch.keep);
  for (const { index, item } of patch.changed) {
    // The index is where the sender saw the item; its id decides, should the two disagree.
    const at = next[index]?.id === item.id ? index : next.findIndex((it) => it.id === item.id);
    if (at >= 0) next[at] = item;
  }
  next.push(...patch.tail);
  return next;
}
