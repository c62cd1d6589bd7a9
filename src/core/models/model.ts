import type { ContextManagement } from '../context/policy';
import type { CacheTtl } from '../context/cacheTtl';
import type { Effort, ModelCapabilities, ThinkingLevel } from './capabilities';
import type { AssistantBlock, WireTool } from '../stream/events';
import type { ToolResultContent } from '../tools/toolSource';

/** A user message's content: the user's words, and the results of the previous reply's tool calls. */
export type UserBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly content: readonly ToolResultContent[];
      readonly isError: boolean;
    };

/**
 * An appended change of what the model is offered (a `wire_change` event): text for the model,
 * and tools offered or withdrawn from this point on. A provider renders it as a
 * `role: "system"` message where the model takes one, else as text in the user message before it.
 */
export interface SystemChange {
  readonly role: 'system';
  readonly text: string;
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export type ChatMessage =
  | { readonly role: 'user'; readonly content: readonly UserBlock[] }
  | { readonly role: 'assistant'; readonly content: readonly AssistantBlock[] }
  | SystemChange;

/**
 * A search_tools result in `messages` that first promoted some of the offered tools. A provider
 * that can load a tool at a point of the conversation (Anthropic's `tool_reference`) loads them
 * there and leaves the prompt prefix alone; one that cannot sends them in its tools array.
 */
export interface Discovery {
  readonly toolUseId: string;
  /** Offered tools this result was the first surviving one to promote, in the order it found them. */
  readonly tools: readonly string[];
}

/**
 * One request to the model, provider-neutral and append-only: `system`, `upFront` and the
 * definitions of `deferred` are what the conversation first sent, all from the stream, so a
 * request only ever grows at its end (see DESIGN.md, "The wire is append-only").
 */
export interface ModelRequest {
  readonly model: string;
  readonly capabilities: ModelCapabilities;
  /** The system prompt as the conversation's first request sent it. */
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  /** The tools array as first sent, in its order. */
  readonly upFront: readonly WireTool[];
  /** Tools appended later with defer_loading, in the order first sent; loaded by a discovery or an added change. */
  readonly deferred: readonly WireTool[];
  /** Which search_tools result loads which deferred tools; derived from the stream on every request. */
  readonly discoveries: readonly Discovery[];
  readonly maxTokens: number;
  readonly thinking: ThinkingLevel;
  /** Undefined: the model's own default. */
  readonly effort: Effort | undefined;
  /** The API's id of the conversation's previous reply, for the cache-miss diagnosis. */
  readonly previousMessageId: string | undefined;
  /** What the API clears and compacts on its side (see context/policy.ts). */
  readonly contextManagement: ContextManagement;
  /** How long the prompt cache keeps the stable prefix (tools and system) after its last use (`quiver.cache.ttl`, resolved). */
  readonly cacheTtl: CacheTtl;
  /** An on-demand compaction (`/compact`): the API summarizes `messages` and answers with the compaction block alone (`contextManagement` is then ignored). */
  readonly compactNow?: true;
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** Of `cacheWriteTokens`, those written to live an hour (priced 2× input, not 1.25×); absent when none or not reported. */
  readonly cacheWrite1hTokens?: number;
}

export interface ModelResponse {
  /** The API's message id. */
  readonly id: string;
  readonly model: string;
  readonly content: readonly AssistantBlock[];
  readonly stopReason: string | null;
  readonly usage: Usage;
  /** Why the prompt cache missed part of the previous request's prefix, in words (none when it did not, or when unknown). */
  readonly cacheMiss: string | undefined;
  /** What context editing cleared from the prompt before the model read it (none when nothing). */
  readonly cleared: { readonly toolUses: number; readonly inputTokens: number } | undefined;
  /** The compaction the API ran in this request: what it read and wrote (none when it did not compact). */
  readonly compacted: { readonly inputTokens: number; readonly outputTokens: number } | undefined;
}

/** Live progress of one streamed response, for rendering; nothing here is durable. */
export interface ModelStreamObserver {
  onText(delta: string): void;
  /** Thinking text as it streams (only with a display that returns it). */
  onThinking?(delta: string): void;
  /** A tool_use block began streaming (its input is not complete yet). */
  onToolUseStart?(id: string, name: string): void;
}

export type ModelErrorKind =
  | 'missing_key'
  | 'auth'
  | 'bad_request'
  | 'rate_limited'
  | 'overloaded'
  | 'server'
  | 'connection'
  | 'stream_cut'
  | 'cancelled'
  /** A setting the request depends on cannot be used (e.g. a base URL without a scheme); nothing was sent. */
  | 'invalid_setting'
  | 'other';

/** The cause of a message not sent for want of an API key (the chat's own notice says how to set one). */
export const MISSING_KEY_CAUSE = 'no API key';

/** Each kind's cause in a few words, where the thrower gives none more precise. */
const BRIEF: Readonly<Record<ModelErrorKind, string>> = {
  missing_key: MISSING_KEY_CAUSE,
  auth: 'the API refused the key',
  bad_request: 'the API refused it',
  rate_limited: 'the API is rate-limiting this key',
  overloaded: 'the API is overloaded',
  server: 'the API had an internal error',
  connection: 'could not reach the API',
  stream_cut: 'the reply was cut off',
  cancelled: 'cancelled',
  invalid_setting: 'a setting is invalid',
  other: 'the request failed',
};

/**
 * A failed request, with a message written for the user (what happened and what to do) and its
 * cause in a few words (`brief`, lower case, no final stop) for a label such as "Not sent: …".
 * "Refused" is only ever said of an answer the API gave (a 4xx), never of a connection that failed.
 */
export class ModelError extends Error {
  readonly brief: string;

  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    brief?: string,
  ) {
    super(message);
    this.name = 'ModelError';
    this.brief = brief ?? BRIEF[kind];
  }
}

/**
 * A model that streams one response. Rejects with a ModelError (kind `cancelled` when the
 * signal aborted); retries are the implementation's business.
 */
export interface ModelClient {
  stream(request: ModelRequest, observer: ModelStreamObserver, signal: AbortSignal): Promise<ModelResponse>;
  /** What the model accepts: from the provider's models list, else a built-in table. Never rejects. */
  capabilities(model: string, signal: AbortSignal): Promise<ModelCapabilities>;
}
