import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, Discovery, ModelRequest, ToolChoice, UserBlock } from '../../core/model';
import type { AssistantBlock } from '../../core/stream/events';
import type { ToolResultContent } from '../../core/toolSource';
import type { ToolDefinition } from '../../core/tools';

type Params = Anthropic.Messages.MessageCreateParamsNonStreaming;
type ContentBlock = Anthropic.Messages.ContentBlockParam;
type ResultBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam | Anthropic.Messages.ToolReferenceBlockParam;

/**
 * How a promoted tool reaches the model. `toolReference`: in `tools` with `defer_loading`, loaded
 * by a `tool_reference` in the search_tools result that promoted it, so the prompt prefix (tools,
 * system, earlier messages) and its cache survive a promotion. `toolsArray`: an ordinary entry of
 * `tools`, for proxies and gateways without deferred tools; every promotion rewrites the cache.
 */
export type PromotionRendering = 'toolReference' | 'toolsArray';

const CACHE: Anthropic.Messages.CacheControlEphemeral = { type: 'ephemeral' };
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

function toolToWire(tool: ToolDefinition, deferred: boolean): Anthropic.Messages.Tool {
  return { name: tool.name, description: tool.description, input_schema: { ...tool.inputSchema, type: 'object' }, ...(deferred ? { defer_loading: true } : {}) };
}

function resultBlockToWire(block: ToolResultContent): ResultBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if ((IMAGE_TYPES as readonly string[]).includes(block.mimeType)) {
    return { type: 'image', source: { type: 'base64', media_type: block.mimeType as ImageType, data: block.data } };
  }
  return { type: 'text', text: `[an image of type ${block.mimeType} was left out: the API accepts ${IMAGE_TYPES.join(', ')}]` };
}

/** Tool references go after the text the model reads, one per tool this result loads. */
function userBlockToWire(block: UserBlock, loads: ReadonlyMap<string, readonly string[]>): ContentBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  const references = (loads.get(block.toolUseId) ?? []).map((name): ResultBlock => ({ type: 'tool_reference', tool_name: name }));
  return { type: 'tool_result', tool_use_id: block.toolUseId, content: [...block.content.map(resultBlockToWire), ...references], is_error: block.isError };
}

function assistantBlockToWire(block: AssistantBlock): ContentBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking, signature: block.signature };
  if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', data: block.data };
  return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
}

type WireMessage = { role: 'user' | 'assistant'; content: ContentBlock[] };

function messageToWire(message: ChatMessage, loads: ReadonlyMap<string, readonly string[]>): WireMessage {
  if (message.role === 'user') return { role: 'user', content: message.content.map((b) => userBlockToWire(b, loads)) };
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
 * The tools to load by reference: every discovered one, except the forced tool (tool_choice
 * names a tool loaded up front). None when that would defer every tool: the API needs one
 * loaded up front.
 */
function deferredTools(request: ModelRequest, rendering: PromotionRendering): ReadonlySet<string> {
  if (rendering === 'toolsArray') return new Set();
  const forced = request.toolChoice.type === 'tool' ? request.toolChoice.name : undefined;
  const deferred = new Set(request.discoveries.flatMap((d) => d.tools).filter((name) => name !== forced));
  return request.tools.some((t) => !deferred.has(t.name)) ? deferred : new Set();
}

function referencesByResult(discoveries: readonly Discovery[], deferred: ReadonlySet<string>): Map<string, readonly string[]> {
  return new Map(discoveries.map((d) => [d.toolUseId, d.tools.filter((name) => deferred.has(name))]));
}

/**
 * The Messages API body for a request: the tools loaded up front in the order given (the
 * offered set, already stable), then the deferred ones, by name; the system prompt and the
 * latest message as prompt-cache breakpoints.
 */
export function requestToWire(request: ModelRequest, rendering: PromotionRendering = 'toolReference'): Params {
  const deferred = deferredTools(request, rendering);
  const upFront = request.tools.filter((t) => !deferred.has(t.name)).map((t) => toolToWire(t, false));
  // request.tools is already in its stable order (builtins, then by name), and no builtin is deferred.
  const loadedLater = request.tools.filter((t) => deferred.has(t.name)).map((t) => toolToWire(t, true));
  const tools = [...upFront, ...loadedLater];
  const loads = referencesByResult(request.discoveries, deferred);
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: CACHE }],
    messages: withCacheBreakpoint(request.messages.map((m) => messageToWire(m, loads))),
    ...(tools.length > 0 ? { tools, tool_choice: toolChoiceToWire(request.toolChoice) } : {}),
  };
}
