/** An effort level of the Messages API's `output_config.effort`. */
export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';
export const EFFORTS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/** `quiver.thinking`: how much the model thinks before and between tool calls. */
export type ThinkingLevel = 'adaptive' | 'between_tools';

/**
 * What one model accepts, as Quiver needs to know it to build a request that is never
 * refused. Thinking, effort, context window and `max_tokens` come from `/v1/models`; the
 * rest (which the models list does not describe) from the fallback table below.
 */
export interface ModelCapabilities {
  readonly id: string;
  /** Thinking blocks sent back get a prefix check: `system`, `tools` and earlier messages must not change. */
  readonly preservedThinking: boolean;
  /** `tool_choice` of type `tool` / `any` is accepted (Sonnet 5.5, Opus 5.5, Fable/Mythos 5.1+ refuse it). */
  readonly forcedToolChoice: boolean;
  /** A `role: "system"` message in `messages` is accepted. */
  readonly systemMessages: boolean;
  /** `tool_addition` / `tool_removal` in a system message (beta `mid-conversation-tool-changes-2026-07-01`). */
  readonly toolChanges: boolean;
  /** Tools with `defer_loading`, loaded by a `tool_reference` in a tool_result. */
  readonly toolSearch: boolean;
  /**
   * Server-side compaction: the `compact_20260112` edit (beta `compact-2026-01-12`) and the
   * on-demand `compaction` parameter (beta `compact-2026-09-04`), one model list for both [CMP].
   */
  readonly compaction: boolean;
  /** Context editing: the `clear_tool_uses_20250919` edit (beta `context-management-2025-06-27`) [CE]. */
  readonly contextEditing: boolean;
  readonly thinking: {
    readonly supported: boolean;
    readonly adaptive: boolean;
    readonly betweenTools: boolean;
    readonly disabled: boolean;
  };
  /** The effort levels the model accepts; empty when it has no effort parameter. */
  readonly efforts: readonly Effort[];
  /** The largest `max_tokens` the model accepts. */
  readonly maxTokens: number;
  readonly contextWindow: number;
  /** Where these figures came from, for the log and the README's claim. */
  readonly source: 'models_api' | 'fallback_table';
}
