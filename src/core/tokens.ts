import type { ToolDefinition } from './tools';

/**
 * Characters per token used for estimates. Claude's tokenizer is not public; English prose
 * runs near 4 characters a token and JSON schemas (punctuation, short keys, snake_case)
 * nearer 3, so 3.5 is the middle. Every figure from here is an ESTIMATE: the real count is
 * the `usage.input_tokens` a request reports.
 */
export const CHARS_PER_TOKEN = 3.5;

/** The JSON a provider sends for one tool: `{ name, description, input_schema }`, compact. */
export function wireJsonOf(tool: ToolDefinition): string {
  return JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
}

/** Estimated tokens one tool definition costs on every request while it is offered. */
export function estimateToolTokens(tool: ToolDefinition): number {
  return Math.ceil(wireJsonOf(tool).length / CHARS_PER_TOKEN);
}

/** Estimated standing cost of an offered set (excluding the API's own fixed tool-use preamble). */
export function estimateToolsTokens(tools: readonly ToolDefinition[]): number {
  return tools.reduce((sum, t) => sum + estimateToolTokens(t), 0);
}
