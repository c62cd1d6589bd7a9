import type Anthropic from '@anthropic-ai/sdk';
import type { ModelCapabilities, ThinkingLevel } from '../../core/models';

type Thinking = Anthropic.Beta.Messages.BetaThinkingConfigParam;

export const BLOCK_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

/**
 * `thinking` for a request. Adaptive asks for the summarized display, so the text the model
 * writes between tool calls comes back and the chat can show it (the default on Sonnet 5.5
 * omits it). `between_tools` is the lowest level Sonnet 5.5 takes; `disabled` is never sent.
 * A rewriting rendering on a model with preserved thinking uses adaptive with drop_block
 * binding, the one type that carries it, so a changed prefix drops stale thinking instead of
 * failing the request.
 */
export function thinkingToWire(level: ThinkingLevel, capabilities: ModelCapabilities, dropStale: boolean): Thinking | undefined {
  const { thinking } = capabilities;
  if (!thinking.supported) return undefined;
  if (level === 'between_tools' && thinking.betweenTools && !dropStale) return { type: 'between_tools' };
  if (!thinking.adaptive) return undefined;
  return { type: 'adaptive', display: 'summarized', ...(dropStale ? { block_binding: { prefix_mismatch_behavior: 'drop_block' } } : {}) };
}
