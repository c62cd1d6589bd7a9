import type { ToolDefinition } from '../../core/tools';
import { SIZE_HINT, type ServerTool } from './normalizeTools';
import { assignQualifiedNames, type ToolRef } from './qualifiedNames';

export interface Catalogue {
  readonly tools: readonly ToolDefinition[];
  readonly byName: ReadonlyMap<string, ToolRef>;
}

/** The model-facing catalogue: every running server's tools under unique qualified names, in server order. */
export function buildCatalogue(servers: readonly { readonly name: string; readonly tools: readonly ServerTool[] }[]): Catalogue {
  const byName = assignQualifiedNames(servers.flatMap((s) => s.tools.map((t) => ({ server: s.name, tool: t.name }))));
  const nameOf = new Map<string, string>();
  for (const [name, ref] of byName) nameOf.set(refKey(ref.server, ref.tool), name);
  const tools = servers.flatMap((s) => s.tools.map((t) => definition(nameOf.get(refKey(s.name, t.name)) ?? '', s.name, t)));
  return { tools, byName };
}

function definition(name: string, server: string, tool: ServerTool): ToolDefinition {
  return {
    name,
    server,
    toolName: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
    ...(tool._meta !== undefined ? { resultSizeHintChars: tool._meta[SIZE_HINT] } : {}),
  };
}

function refKey(server: string, tool: string): string {
  return JSON.stringify([server, tool]);
}
