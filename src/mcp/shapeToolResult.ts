import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallResult, ToolResultContent } from '../core/tools';
import { stripStackFrames } from './describeCallError';
import { headOf } from '../core/text';
import { resultCutMarker } from './truncate';

type Block = CallToolResult['content'][number];

/** Larger images are rejected by the Messages API, so they are described instead of sent. */
const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;

export interface ResultContext {
  readonly server: string;
  readonly tool: string;
  readonly maxResultChars: number;
}

/**
 * Turns an MCP `tools/call` result into what the model reads: text and images kept, other
 * blocks described in a line, structured content as compact JSON when there is no text, and
 * all text together bounded by `maxResultChars` with an explicit marker where it was cut.
 */
export function shapeToolResult(result: CallToolResult, context: ResultContext): ToolCallResult {
  const blocks = result.content.map(toModelContent);
  if (result.structuredContent !== undefined && !blocks.some((b) => b.type === 'text')) {
    blocks.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  const isError = result.isError === true;
  if (blocks.length === 0) blocks.push({ type: 'text', text: isError ? '(no details given)' : '(the tool returned no content)' });
  const bounded = boundText(blocks, context.maxResultChars);
  return { isError, content: isError ? withErrorHeading(bounded, context) : bounded };
}

function toModelContent(block: Block): ToolResultContent {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return block.data.length <= MAX_IMAGE_BASE64_CHARS
        ? { type: 'image', data: block.data, mimeType: block.mimeType }
        : { type: 'text', text: `[image (${block.mimeType}, ${block.data.length} base64 characters) not shown: too large]` };
    case 'audio':
      return { type: 'text', text: `[audio (${block.mimeType}, ${block.data.length} base64 characters) not shown: audio is not supported]` };
    case 'resource_link':
      return { type: 'text', text: `Resource link: ${block.name} <${block.uri}>${block.description ? ` — ${block.description}` : ''}` };
    case 'resource':
      return 'text' in block.resource
        ? { type: 'text', text: `Resource <${block.resource.uri}>:\n${block.resource.text}` }
        : { type: 'text', text: `[binary resource <${block.resource.uri}> (${block.resource.mimeType ?? 'unknown type'}) not shown]` };
  }
}

/** Shares one character budget across all text blocks, keeping their order. */
function boundText(blocks: readonly ToolResultContent[], max: number): ToolResultContent[] {
  const total = blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0);
  if (total <= max) return [...blocks];
  const out: ToolResultContent[] = [];
  let kept = 0;
  for (const block of blocks) {
    if (block.type !== 'text') {
      out.push(block);
      continue;
    }
    if (kept >= max) continue;
    const text = headOf(block.text, max - kept);
    kept += text.length;
    out.push({ type: 'text', text });
  }
  out.push({ type: 'text', text: resultCutMarker(kept, total) });
  return out;
}

function withErrorHeading(blocks: readonly ToolResultContent[], context: ResultContext): ToolResultContent[] {
  const heading = `The tool "${context.tool}" of MCP server "${context.server}" reported an error:`;
  const [first, ...rest] = blocks.map((b) => (b.type === 'text' ? { type: 'text' as const, text: stripStackFrames(b.text) } : b));
  return first?.type === 'text' ? [{ type: 'text', text: `${heading}\n${first.text}` }, ...rest] : [{ type: 'text', text: heading }, ...(first ? [first] : []), ...rest];
}
