import type { ToolDefinition } from '../tools/definitions';
import { resolveTool } from './resolve';
import { isLockedOff, type ResolvedTool, type ToolsConfig } from './types';

export interface ToolSetsInput {
  /** Every known tool: MCP tools of configured servers and the builtins. */
  readonly catalogue: readonly ToolDefinition[];
  readonly config: ToolsConfig;
  /** A tool forced for one request (`/use NAME`): offered and permitted unless locked off. */
  readonly forced?: string;
  /** Servers whose tools can run now; a tool of any other server is not permitted. */
  readonly runningServers: ReadonlySet<string>;
}

export interface ToolSets {
  /** May be called: discoverable or on, plus the forced tool, minus locked off. */
  readonly permitted: readonly ToolDefinition[];
  /** Sent to the model: on, plus the forced tool. A subset of permitted. */
  readonly offered: readonly ToolDefinition[];
  /** What search_tools ranks: discoverable and not offered. */
  readonly searchable: readonly ToolDefinition[];
  /** The resolution of every catalogue tool, for display and toggles. */
  readonly resolved: ReadonlyMap<string, ResolvedTool>;
}

export function computeToolSets(input: ToolSetsInput): ToolSets {
  const permitted: ToolDefinition[] = [];
  const offered: ToolDefinition[] = [];
  const searchable: ToolDefinition[] = [];
  const resolved = new Map<string, ResolvedTool>();
  for (const tool of input.catalogue) {
    const r = resolveTool(input.config, tool);
    resolved.set(tool.name, r);
    const running = tool.server === undefined || input.runningServers.has(tool.server);
    if (!running || isLockedOff(r)) continue;
    const forced = tool.name === input.forced;
    if (r.availability === 'off' && !forced) continue;
    permitted.push(tool);
    if (r.availability === 'on' || forced) offered.push(tool);
    else searchable.push(tool);
  }
  return { permitted, offered, searchable, resolved };
}
