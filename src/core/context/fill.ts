import type { StreamEvent } from '../stream/events';

/** Past this share of its context window a conversation is close to requests the API refuses as too long. */
export const CONTEXT_FILL_WARNING = 0.8;

/** How full the model's context window was at a conversation's last answered request. */
export interface ContextFill {
  readonly model: string;
  /** The whole prompt of that request as the API counted it: input, cache reads and cache writes. */
  readonly tokens: number;
  /** The model's context window (ModelCapabilities.contextWindow). */
  readonly window: number;
  /** `tokens / window`, 0 or more. */
  readonly share: number;
}

/** The fill at the last `usage` event of `events`, against `windowOf` its model; undefined before any request was answered. */
export function contextFillOf(events: readonly StreamEvent[], windowOf: (model: string) => number): ContextFill | undefined {
  const last = [...events].reverse().find((e): e is Extract<StreamEvent, { type: 'usage' }> => e.type === 'usage');
  if (last === undefined) return undefined;
  const tokens = last.inputTokens + last.cacheReadTokens + last.cacheWriteTokens;
  const window = windowOf(last.model);
  return { model: last.model, tokens, window, share: window > 0 ? tokens / window : 0 };
}

export const isContextFillWarning = (fill: ContextFill): boolean => fill.share > CONTEXT_FILL_WARNING;

/** `Context window: 41% full at the last request (82,310 of 200,000 tokens, claude-sonnet-5-5)`. */
export function contextFillText(fill: ContextFill): string {
  const count = (n: number): string => n.toLocaleString('en-US');
  return `Context window: ${Math.round(100 * fill.share)}% full at the last request (${count(fill.tokens)} of ${count(fill.window)} tokens, ${fill.model})`;
}
