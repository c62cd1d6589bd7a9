import type { AssistantBlock } from './stream/events';
import type { ToolResultContent } from './toolSource';
import type { ToolDefinition } from './tools';

/** A user message's content: the user's words, and the results of the previous reply's tool calls. */
export type UserBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly content: readonly ToolResultContent[];
      readonly isError: boolean;
    };

export type ChatMessage =
  | { readonly role: 'user'; readonly content: readonly UserBlock[] }
  | { readonly role: 'assistant'; readonly content: readonly AssistantBlock[] };

export type ToolChoice = { readonly type: 'auto' } | { readonly type: 'tool'; readonly name: string };

/** One request to the model, provider-neutral. `tools` is the offered set, already in its stable order. */
export interface ModelRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly toolChoice: ToolChoice;
  readonly maxTokens: number;
}

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export interface ModelResponse {
  readonly model: string;
  readonly content: readonly AssistantBlock[];
  readonly stopReason: string | null;
  readonly usage: Usage;
}

/** Live progress of one streamed response, for rendering; nothing here is durable. */
export interface ModelStreamObserver {
  onText(delta: string): void;
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
  | 'other';

/** A failed request, with a message written for the user (what happened and what to do). */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

/**
 * A model that streams one response. Rejects with a ModelError (kind `cancelled` when the
 * signal aborted); retries are the implementation's business.
 */
export interface ModelClient {
  stream(request: ModelRequest, observer: ModelStreamObserver, signal: AbortSignal): Promise<ModelResponse>;
}
