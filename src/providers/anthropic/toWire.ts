import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ModelRequest, ToolChoice, UserBlock } from '../../core/model';
import type { AssistantBlock } from '../../core/stream/events';
import type { ToolResultContent } from '../../core/toolSource';
import type { ToolDefinition } from '../../core/tools';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;
type ContentBlock = Anthropic.Messages.ContentBlockParam;
type ResultBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam;

const CACHE: Anthropic.Messages.CacheControlEphemeral = { type: 'ephemeral' };
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

function toolToWire(tool: ToolDefinition): Anthropic.Messages.Tool {
  return { name: tool.name, description: tool.description, input_schema: { ...tool.inputSchema, type: 'object' } };
}

function resultBlockToWire(block: ToolResultContent): ResultBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if ((IMAGE_TYPES as readonly string[]).includes(block.mimeType)) {
    return { type: 'image', source: { type: 'base64', media_type: block.mimeType as ImageType, data: block.data } };
  }
  return { type: 'text', text: `[an image of type ${block.mimeType} was left out: the API accepts ${IMAGE_TYPES.join(', ')}]` };
}

function userBlockToWire(block: UserBlock): ContentBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_result', tool_use_id: block.toolUseId, content: block.content.map(resultBlockToWire), is_error: block.isError };
}

function assistantBlockToWire(block: AssistantBlock): ContentBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
}

type WireMessage = { role: 'user' | 'assistant'; content: ContentBlock[] };

function messageToWire(message: ChatMessage): WireMessage {
  if (message.role === 'user') return { role: 'user', content: message.content.map(userBlockToWire) };
  return { role: 'assistant', content: message.content.map(assistantBlockToWire) };
}

/** Marks the last block of the latest message as a cache breakpoint, so the next request reads the whole prefix from cache. */
function withCacheBreakpoint(messages: WireMessage[]): WireMessage[] {
  const last = messages.at(-1);
  if (!last || last.content.length === 0) return messages;
  const blocks = [...last.content];
  const final = blocks[blocks.length - 1];
  if (final && final.type !== 'thinking' && final.type !== 'redacted_thinking') blocks[blocks.length - 1] = { ...final, cache_control: CACHE };
  return [...messages.slice(0, -1), { ...last, content: blocks }];
}

function toolChoiceToWire(choice: ToolChoice): Anthropic.Messages.ToolChoice {
  return choice.type === 'tool' ? { type: 'tool', name: choice.name } : { type: 'auto' };
}

/**
 * The Messages API body for a request: tools in the order given (the offered set, already
 * stable), the system prompt and the latest message as prompt-cache breakpoints.
 */
export function requestToWire(request: ModelRequest): Params {
  const tools = request.tools.map(toolToWire);
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: CACHE }],
    messages: withCacheBreakpoint(request.messages.map(messageToWire)),
    ...(tools.length > 0 ? { tools, tool_choice: toolChoiceToWire(request.toolChoice) } : {}),
  };
}
