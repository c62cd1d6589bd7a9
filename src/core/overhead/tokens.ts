import type { ToolDefinition } from '../tools/definitions';

/**
 * Characters per token used for estimates. Claude's tokenizer is not public; English prose
 * runs near 4 characters a token and JSON schemas (punctuation, short keys, snake_case)
 * nearer 3, so 3.5 is the middle. Every figure from here is an ESTIMATE: the real count is
 * the `usage.input_tokens` a request reports.
 */
export const CHARS_PER_TOKEN = 3.5;

/** Estimated tokens of `chars` characters of text. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Characters of text that `tokens` estimated tokens hold. */
export function charsOfTokens(tokens: number): number {
  return Math.floor(tokens * CHARS_PER_TOKEN);
}

/** What of a definition is sent, so a definition recorded from the wire is estimated the same way. */
type DefinitionText = Pick<ToolDefinition, 'name' | 'description' | 'inputSchema'>;

/** The JSON a provider sends for one tool: `{ name, description, input_schema }`, compact. */
export function wireJsonOf(tool: DefinitionText): string {
  return JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
}

// Keyed by the schema object, which a server's tool list keeps across catalogue rebuilds: the
// Tools view and the status bar re-estimate every tool on each change, and serializing the
// 2,213 bench definitions three times over took 37–137 ms a change (2026-11-30).
// Name and description are compared too, since one schema object may serve several tools.
const estimates = new WeakMap<object, { readonly name: string; readonly description: string; readonly tokens: number }>();

/** Estimated tokens one tool definition costs on every request while it is offered. */
export function estimateToolTokens(tool: DefinitionText): number {
  const known = estimates.get(tool.inputSchema);
  if (known !== undefined && known.name === tool.name && known.description === tool.description) return known.tokens;
  const tokens = tokensOfChars(wireJsonOf(tool).length);
  estimates.set(tool.inputSchema, { name: tool.name, description: tool.description, tokens });
  return tokens;
}

/** Estimated standing cost of an offered set (excluding the API's own fixed tool-use preamble). */
export function estimateToolsTokens(tools: readonly ToolDefinition[]): number {
  return tools.reduce((sum, t) => sum + estimateToolTokens(t), 0);
}
