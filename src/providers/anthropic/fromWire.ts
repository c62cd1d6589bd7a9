import type Anthropic from '@anthropic-ai/sdk';
import type { ModelResponse } from '../../core/model';
import type { AssistantBlock } from '../../core/stream/events';
import { describeCacheMiss } from './cacheMiss';

type Message = Anthropic.Beta.Messages.BetaMessage;
type Block = Message['content'][number];

/** Keeps what Quiver sends back: text, tool calls, and thinking exactly as returned (signature and all, empty text too). */
function blockFromWire(block: Block): AssistantBlock | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', data: block.data };
  if (block.type === 'tool_use') {
    const input = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
    return { type: 'tool_use', id: block.id, name: block.name, input };
  }
  return undefined;
}

/** The parts of a finished message Quiver keeps: its id, the blocks above, the stop reason, usage, and why the cache missed. */
export function responseFromWire(message: Message): ModelResponse {
  const longWrites = message.usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  return {
    id: message.id,
    model: message.model,
    content: message.content.map(blockFromWire).filter((b): b is AssistantBlock => b !== undefined),
    stopReason: message.stop_reason,
    usage: {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
      ...(longWrites > 0 ? { cacheWrite1hTokens: longWrites } : {}),
    },
    cacheMiss: describeCacheMiss(message.diagnostics?.cache_miss_reason ?? null),
  };
}
