import type Anthropic from '@anthropic-ai/sdk';
import type { ModelResponse } from '../../core/model';
import type { AssistantBlock } from '../../core/stream/events';

function blockFromWire(block: Anthropic.Messages.ContentBlock): AssistantBlock | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'tool_use') {
    const input = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
    return { type: 'tool_use', id: block.id, name: block.name, input };
  }
  return undefined;
}

/** The parts of a finished message Quiver keeps: text and tool calls, the stop reason, the usage. */
export function responseFromWire(message: Anthropic.Messages.Message): ModelResponse {
  return {
    model: message.model,
    content: message.content.map(blockFromWire).filter((b): b is AssistantBlock => b !== undefined),
    stopReason: message.stop_reason,
    usage: {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
      cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
    },
  };
}
