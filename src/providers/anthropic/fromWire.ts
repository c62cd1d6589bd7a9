import type Anthropic from '@anthropic-ai/sdk';
import type { ModelResponse } from '../../core/models';
import type { AssistantBlock } from '../../core/stream';
import { describeCacheMiss } from './cacheMiss';

type Message = Anthropic.Beta.Messages.BetaMessage;
type Block = Message['content'][number];
type CompactionBlock = Anthropic.Beta.Messages.BetaCompactionBlock;
type ToolChange = NonNullable<CompactionBlock['tool_changes']>[number];

/** The name a tool change names: a reference's, or an inline definition's. */
function changedName(change: ToolChange): string | undefined {
  const tool = change.tool;
  if (tool.type === 'tool_reference') return tool.name;
  if (tool.type === 'tool_definition' && 'name' in tool.definition && typeof tool.definition.name === 'string') return tool.definition.name;
  return undefined;
}

/** The tools a compaction block says the server carried over its boundary; undefined when it did not say. */
function toolChangesOf(block: CompactionBlock): { added: string[]; removed: string[] } | undefined {
  if (!Array.isArray(block.tool_changes)) return undefined;
  const added: string[] = [];
  const removed: string[] = [];
  for (const change of block.tool_changes) {
    const name = changedName(change);
    if (name !== undefined) (change.type === 'tool_addition' ? added : removed).push(name);
  }
  return { added, removed };
}

/** Keeps what Quiver sends back: text, tool calls, compaction blocks and thinking exactly as returned (signature and all, empty text too). */
function blockFromWire(block: Block): AssistantBlock | undefined {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', data: block.data };
  if (block.type === 'tool_use') {
    const input = typeof block.input === 'object' && block.input !== null && !Array.isArray(block.input) ? (block.input as Record<string, unknown>) : {};
    return { type: 'tool_use', id: block.id, name: block.name, input };
  }
  if (block.type === 'compaction') {
    const toolChanges = toolChangesOf(block);
    return { type: 'compaction', summary: block.content, ...(toolChanges !== undefined ? { toolChanges } : {}), wire: { ...block } };
  }
  return undefined;
}

/** What context editing cleared, summed over its edits; undefined when it cleared nothing. */
function clearedOf(message: Message): ModelResponse['cleared'] {
  let toolUses = 0;
  let inputTokens = 0;
  for (const edit of message.context_management?.applied_edits ?? []) {
    if (edit.type !== 'clear_tool_uses_20250919') continue;
    toolUses += edit.cleared_tool_uses;
    inputTokens += edit.cleared_input_tokens;
  }
  return toolUses > 0 ? { toolUses, inputTokens } : undefined;
}

/**
 * The compaction sampling step, from `usage.iterations` (the SDK's BetaCompactionIterationUsage):
 * the top-level usage is the reply's own step, so the compaction's cost is counted from here.
 */
function compactedOf(message: Message): ModelResponse['compacted'] {
  const steps = (message.usage.iterations ?? []).filter((i) => i.type === 'compaction');
  if (steps.length === 0) return undefined;
  return {
    inputTokens: steps.reduce((n, i) => n + i.input_tokens + i.cache_read_input_tokens + i.cache_creation_input_tokens, 0),
    outputTokens: steps.reduce((n, i) => n + i.output_tokens, 0),
  };
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
    cleared: clearedOf(message),
    compacted: compactedOf(message),
  };
}
