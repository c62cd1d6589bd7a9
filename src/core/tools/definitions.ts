import type { ToolEntry } from '../availability/types';

/** JSON Schema as received from an MCP server: untrusted, so every field is optional. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * Hints a server reports about a tool. Untrusted: they inform display only and never
 * grant anything (a tool claiming to be read-only is still subject to its run policy).
 */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * One tool as the model would see it. `name` is unique across the catalogue and matches
 * the Messages API rule `^[a-zA-Z0-9_-]{1,64}$`; `server` and `toolName` map it back to
 * the MCP server that runs it (`server` is undefined for Quiver's builtins).
 */
export interface ToolDefinition {
  readonly name: string;
  readonly server: string | undefined;
  readonly toolName: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /**
   * The server's own word on how much of one result matters whole, in characters
   * (`_meta["anthropic/maxResultSizeChars"]` of its tools/list entry): a result up to it goes to
   * the model whole unless the user's `resultTokens` for the tool says otherwise.
   */
  readonly resultSizeHintChars?: number;
  /**
   * What the tool's own source recommends when no `quiver.tools` entry sets a field (the editor's
   * tools: reads on, writes asking, delete off); settings and deltas always win over it.
   */
  readonly defaults?: ToolEntry;
}

/** The names of Quiver's own tools; no MCP tool may take one of them. */
export const SEARCH_TOOLS_NAME = 'search_tools';
export const DESCRIBE_TOOLS_NAME = 'describe_tools';
export const READ_RESULT_NAME = 'read_result';
export const BUILTIN_TOOL_NAMES = [SEARCH_TOOLS_NAME, DESCRIBE_TOOLS_NAME, READ_RESULT_NAME] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}
