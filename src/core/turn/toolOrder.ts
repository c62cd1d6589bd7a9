import { BUILTIN_TOOL_NAMES, type ToolDefinition } from '../tools/definitions';

function rank(tool: ToolDefinition): number {
  const i = (BUILTIN_TOOL_NAMES as readonly string[]).indexOf(tool.name);
  return i === -1 ? BUILTIN_TOOL_NAMES.length : i;
}

/**
 * The order tools go to the provider: builtins first, then by qualified name (code-unit order,
 * not locale). Stable, so the same offered set always serializes the same way (prompt cache).
 */
export function orderTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  return [...tools].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
