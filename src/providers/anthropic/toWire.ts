import type Anthropic from '@anthropic-ai/sdk';
import type { CacheTtl } from '../../core/context';
import type { ChatMessage, ModelRequest, SystemChange, UserBlock } from '../../core/models';
import type { AssistantBlock, WireTool } from '../../core/stream';
import type { ToolResultContent } from '../../core/tools';
import { contextManagementToWire } from './contextToWire';
import { toolsRendering, type PromotionRendering, type ToolsRendering } from './rendering';
import { BLOCK_BINDING_BETA, thinkingToWire } from './thinkingToWire';

type Beta = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
type WireMessage = Anthropic.Beta.Messages.BetaMessageParam;
type ContentBlock = Anthropic.Beta.Messages.BetaContentBlockParam;
type ResultBlock = Anthropic.Beta.Messages.BetaToolResultContentBlockParam;
type SystemBlock = Anthropic.Beta.Messages.BetaTextBlockParam | Anthropic.Beta.Messages.BetaRequestToolAdditionBlock | Anthropic.Beta.Messages.BetaRequestToolRemovalBlock;

export const TOOL_CHANGES_BETA = 'mid-conversation-tool-changes-2026-07-01';
/** The same page's later beta: tool changes by reference, and tools defined in a message (`tool_definition`). */
export const INLINE_TOOLS_BETA = 'inline-tools-2026-09-15';
/** The moving breakpoint at the end of the messages: the API's default 5 minutes (a later 1-hour one would be refused). */
const CACHE: Anthropic.Beta.Messages.BetaCacheControlEphemeral = { type: 'ephemeral' };

/**
 * The stable prefix's breakpoint, on the system prompt (the prefix is tools, then system): 1 hour
 * when asked, needing no beta header since 2025-08-13 (platform.claude.com/docs/en/release-notes/overview).
 * It comes before the moving 5-minute one, as "cache entries with longer TTL must appear before
 * shorter TTLs" (build-with-claude/prompt-caching, "Mixing different TTLs").
 */
function stableCacheControl(ttl: CacheTtl): Anthropic.Beta.Messages.BetaCacheControlEphemeral {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : CACHE;
}
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageType = (typeof IMAGE_TYPES)[number];

const isBlank = (text: string): boolean => text.trim() === '';

function toolToWire(tool: WireTool, deferred: boolean): Anthropic.Beta.Messages.BetaTool {
  return { name: tool.name, description: tool.description, input_schema: { ...tool.inputSchema, type: 'object' }, ...(deferred ? { defer_loading: true } : {}) };
}

function resultBlockToWire(block: ToolResultContent): ResultBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if ((IMAGE_TYPES as readonly string[]).includes(block.mimeType)) {
    return { type: 'image', source: { type: 'base64', media_type: block.mimeType as ImageType, data: block.data } };
  }
  return { type: 'text', text: `[an image of type ${block.mimeType} was left out: the API accepts ${IMAGE_TYPES.join(', ')}]` };
}

/** The API takes only text in an error result; an image there is named instead. Never an empty or blank text block. */
function resultContent(content: readonly ToolResultContent[], isError: boolean): ResultBlock[] {
  const shaped = isError ? content.map((b): ToolResultContent => (b.type === 'text' ? b : { type: 'text', text: `[an image (${b.mimeType}) was left out of this error result]` })) : content;
  const blocks = shaped.filter((b) => b.type !== 'text' || !isBlank(b.text)).map(resultBlockToWire);
  return blocks.length > 0 ? blocks : [{ type: 'text', text: isError ? 'The tool failed without saying why.' : 'The tool returned nothing.' }];
}

/**
 * A user message. A tool_result that loads tools holds only their tool_reference blocks (the
 * API refuses references mixed with anything else); what the model reads of that search goes
 * in a text block after the message's tool_results.
 */
function userToWire(content: readonly UserBlock[], loads: ReadonlyMap<string, readonly string[]>): ContentBlock[] {
  const results: ContentBlock[] = [];
  const beside: ContentBlock[] = [];
  const rest: ContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'text') {
      if (!isBlank(block.text)) rest.push({ type: 'text', text: block.text });
      continue;
    }
    const refs = loads.get(block.toolUseId) ?? [];
    if (refs.length === 0) {
      results.push({ type: 'tool_result', tool_use_id: block.toolUseId, content: resultContent(block.content, block.isError), ...(block.isError ? { is_error: true } : {}) });
      continue;
    }
    results.push({ type: 'tool_result', tool_use_id: block.toolUseId, content: refs.map((name): ResultBlock => ({ type: 'tool_reference', tool_name: name })) });
    for (const b of block.content) if (b.type === 'text' && !isBlank(b.text)) beside.push({ type: 'text', text: b.text });
  }
  return [...results, ...beside, ...rest];
}

/**
 * An assistant turn exactly as returned: thinking and redacted thinking untouched, in order.
 * A blank text block after the last thinking block is left out (the API refuses blank text,
 * and nothing after it binds to it); one before a thinking block stays, as that block's prefix.
 */
function assistantToWire(content: readonly AssistantBlock[]): ContentBlock[] {
  let lastThinking = -1;
  content.forEach((b, i) => {
    if (b.type === 'thinking' || b.type === 'redacted_thinking') lastThinking = i;
  });
  return content.flatMap((block, i): ContentBlock[] => {
    if (block.type === 'text') return isBlank(block.text) && i > lastThinking ? [] : [{ type: 'text', text: block.text }];
    if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
    if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }];
    // "Send the block back unchanged" (the SDK's BetaCompactionBlockParam): the recorded bytes, as returned.
    if (block.type === 'compaction') return [block.wire as unknown as Anthropic.Beta.Messages.BetaCompactionBlockParam];
    return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
  });
}

/** Said where a change cannot add a tool: the tools array must stay as first sent. */
function waitingNote(added: readonly string[]): string {
  return `(This model cannot be given new tools in the middle of a conversation, so ${added.join(', ')} will be offered in a new chat; do not call ${added.length === 1 ? 'it' : 'them'} here.)`;
}

/** What the model reads of a change: its text, and the note where tools it adds cannot be offered. */
function changeText(change: SystemChange, rendering: ToolsRendering): string {
  const waiting = rendering.deferred && !rendering.toolChanges && change.added.length > 0;
  return [change.text, ...(waiting ? [waitingNote(change.added)] : [])].filter((t) => !isBlank(t)).join('\n\n');
}

/**
 * Tools defined in the messages, for a conversation whose first request sent no tool up front
 * (see inlineTools): each tool's definition goes in the first `tool_addition` that offers it, a
 * later one names it. Filled in message order, so every request renders the same bytes.
 */
class InlineTools {
  private readonly defined = new Set<string>();
  constructor(
    private readonly definitions: ReadonlyMap<string, WireTool>,
    /** What each search result loads, by tool_use id: defined right after the user message that holds it. */
    readonly loads: ReadonlyMap<string, readonly string[]>,
  ) {}

  addition(name: string): SystemBlock {
    const definition = this.definitions.get(name);
    if (definition === undefined || this.defined.has(name)) return { type: 'tool_addition', tool: { type: 'tool_reference', name } };
    this.defined.add(name);
    return { type: 'tool_addition', tool: { type: 'tool_definition', definition: toolToWire(definition, false) } };
  }

  /** A removal names a tool defined earlier; there is nothing to withdraw from one never defined. */
  removal(name: string): SystemBlock[] {
    return this.defined.has(name) ? [removalOf(name)] : [];
  }
}

function removalOf(name: string): SystemBlock {
  return { type: 'tool_removal', tool: { type: 'tool_reference', name } };
}

function systemToWire(change: SystemChange, rendering: ToolsRendering, inline: InlineTools | undefined): SystemBlock[] {
  const text = changeText(change, rendering);
  const blocks: SystemBlock[] = isBlank(text) ? [] : [{ type: 'text', text }];
  if (rendering.toolChanges) {
    for (const name of change.removed) blocks.push(...(inline ? inline.removal(name) : [removalOf(name)]));
    for (const name of change.added) blocks.push(inline ? inline.addition(name) : { type: 'tool_addition', tool: { type: 'tool_reference', name } });
  }
  return blocks;
}

/** The additions that load what a user message's search results found, where tools are defined inline. */
function loadsToWire(content: readonly UserBlock[], inline: InlineTools | undefined): SystemBlock[] {
  if (!inline) return [];
  return content.flatMap((b) => (b.type === 'tool_result' ? (inline.loads.get(b.toolUseId) ?? []) : [])).map((name) => inline.addition(name));
}

/**
 * The messages. Where the model takes no system messages, a change's text joins the user
 * message before it (a system change always follows one; see transcript.ts). Where tools are
 * defined inline, what a search found is added right after the user message holding its
 * result, first in the system message that follows it (one is made when none does).
 */
function messagesToWire(messages: readonly ChatMessage[], loads: ReadonlyMap<string, readonly string[]>, rendering: ToolsRendering, inline: InlineTools | undefined): WireMessage[] {
  const out: WireMessage[] = [];
  let found: SystemBlock[] = [];
  for (const m of messages) {
    if (m.role !== 'system' && found.length > 0) {
      out.push({ role: 'system', content: found });
      found = [];
    }
    if (m.role === 'user') {
      out.push({ role: 'user', content: userToWire(m.content, loads) });
      found = loadsToWire(m.content, inline);
    } else if (m.role === 'assistant') out.push({ role: 'assistant', content: assistantToWire(m.content) });
    else if (rendering.systemMessages) {
      const content = [...found, ...systemToWire(m, rendering, inline)];
      found = [];
      if (content.length > 0) out.push({ role: 'system', content });
    } else {
      const last = out.at(-1);
      const text = changeText(m, rendering);
      if (last?.role === 'user' && Array.isArray(last.content) && !isBlank(text)) last.content.push({ type: 'text', text });
    }
  }
  if (found.length > 0) out.push({ role: 'system', content: found });
  return out;
}

/** Marks the last block of the latest message as a cache breakpoint, so the next request reads the whole prefix from cache. */
function withCacheBreakpoint(messages: WireMessage[]): WireMessage[] {
  const last = messages.at(-1);
  if (!last || !Array.isArray(last.content) || last.content.length === 0) return messages;
  const blocks = [...last.content];
  const final = blocks[blocks.length - 1];
  if (final && final.type !== 'thinking' && final.type !== 'redacted_thinking') blocks[blocks.length - 1] = { ...final, cache_control: CACHE } as typeof final;
  return [...messages.slice(0, -1), { ...last, content: blocks } as WireMessage];
}

/**
 * The tools array: as first sent, deferred ones after; none at all where nothing was sent up front
 * (see inlineTools); or, for a rewriting rendering, what is offered now.
 */
function toolsToWire(request: ModelRequest, rendering: ToolsRendering): Anthropic.Beta.Messages.BetaTool[] {
  if (rendering.deferred) {
    if (request.upFront.length === 0) return [];
    return [...request.upFront.map((t) => toolToWire(t, false)), ...request.deferred.map((t) => toolToWire(t, true))];
  }
  const offered = offeredAtEnd(request);
  return [...request.upFront, ...request.deferred].filter((t) => offered.has(t.name)).map((t) => toolToWire(t, false));
}

/** Names offered at the end of the messages: up front, plus what discoveries and changes added, minus removals. */
function offeredAtEnd(request: ModelRequest): ReadonlySet<string> {
  const offered = new Set(request.upFront.map((t) => t.name));
  const loads = new Map(request.discoveries.map((d) => [d.toolUseId, d.tools]));
  for (const m of request.messages) {
    if (m.role === 'system') {
      for (const name of m.removed) offered.delete(name);
      for (const name of m.added) offered.add(name);
    } else if (m.role === 'user') {
      for (const b of m.content) if (b.type === 'tool_result') for (const name of loads.get(b.toolUseId) ?? []) offered.add(name);
    }
  }
  return offered;
}

/**
 * Where the conversation's first request sent no tool up front (it offered none; see opening in
 * core/wire/wireChanges.ts), its tools come by definitions in the messages:
 * - a `tools` array of deferred tools alone is refused: "At least one tool must have
 *   defer_loading=false. All tools cannot be deferred." (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool,
 *   "Error handling"; the scripted API's rules.ts);
 * - a tool up front that the first request did not send would change `tools`, the start of the
 *   prefix every later request's cache and every thinking block sent back key on
 *   (build-with-claude/preserved-thinking/prefix-checks);
 * - under the `inline-tools-2026-09-15` beta of mid-conversation tool changes
 *   (https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages,
 *   "Define tools in a message"), a `tool_addition` may carry "a `tool_definition` object that
 *   carries an inline tool definition in `definition` (the same object a `tools` entry holds)",
 *   or reference "a tool defined earlier in `messages`", and a `tool_removal` may name one too
 *   (the SDK's BetaRequestToolAdditionBlock / BetaRequestToolRemovalBlock).
 * So such a conversation never sends `tools`, and defines each tool in the change, or right after
 * the search result, that first offers it. Taken on the models with tool changes (the later beta
 * of the same feature, on the same page); a model without them gets no tool in that conversation:
 * a change that adds one says it waits for a new chat.
 */
function inlineTools(request: ModelRequest, rendering: ToolsRendering): InlineTools | undefined {
  if (!rendering.deferred || !rendering.toolChanges || request.upFront.length > 0) return undefined;
  const definitions = new Map(request.deferred.map((t) => [t.name, t]));
  return new InlineTools(definitions, new Map(request.discoveries.map((d) => [d.toolUseId, d.tools])));
}

/**
 * The Messages API body for a request (beta route, for system-message tool changes). The
 * prefix only grows: `system`, the tools array and every earlier message are sent as the
 * conversation first sent them; a change is an appended system message.
 */
export function requestToWire(request: ModelRequest, setting: PromotionRendering = 'toolReference'): Beta {
  const rendering = toolsRendering(request.capabilities, setting);
  const inline = inlineTools(request, rendering);
  // A reference needs a deferred tool in `tools`, which only a conversation with a tool up front has.
  const references = rendering.references && request.upFront.length > 0;
  const loads = references ? new Map(request.discoveries.map((d) => [d.toolUseId, d.tools])) : new Map<string, readonly string[]>();
  const tools = toolsToWire(request, rendering);
  const thinking = thinkingToWire(request.thinking, request.capabilities, rendering.dropStaleThinking);
  const effort = request.effort;
  const changesBeta = inline ? INLINE_TOOLS_BETA : TOOL_CHANGES_BETA;
  const context = contextManagementToWire(request.contextManagement, request.messages);
  const betas = [...(rendering.toolChanges ? [changesBeta] : []), ...(rendering.dropStaleThinking && thinking !== undefined ? [BLOCK_BINDING_BETA] : []), ...context.betas];
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: stableCacheControl(request.cacheTtl) }],
    messages: withCacheBreakpoint(messagesToWire(request.messages, loads, rendering, inline)),
    ...(tools.length > 0 ? { tools } : {}),
    ...(thinking !== undefined ? { thinking } : {}),
    ...(effort !== undefined ? { output_config: { effort } } : {}),
    ...(context.config !== undefined ? { context_management: context.config } : {}),
    diagnostics: { previous_message_id: request.previousMessageId ?? null },
    ...(betas.length > 0 ? { betas } : {}),
  };
}
