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

/** One request to the model, provider-neutral. `tools` is the offered set, already in its stable order. */
export interface ModelRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  /** Where each promoted tool of `tools` was discovered; derived from the stream on every request. */
  readonly discoveries: readonly Discovery[];
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
