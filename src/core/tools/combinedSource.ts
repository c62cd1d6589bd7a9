import type { ServerKeys } from '../availability';
import type { ToolCallHooks } from '../elicitation/elicitation';
import type { CallReview, ToolCallResult, ToolSource, Unsubscribe } from './toolSource';
import type { ToolDefinition } from './definitions';

/**
 * A tool source that needs no process, such as the editor's own tools: always running, listed
 * under one source name, its tools qualified as `<name>__<tool>` like an MCP server's.
 */
export interface BuiltInSource {
  readonly name: string;
  tools(): readonly ToolDefinition[];
  review(name: string, args: Readonly<Record<string, unknown>>, callId: string): Promise<CallReview>;
  call(name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal, hooks?: ToolCallHooks): Promise<ToolCallResult>;
  onDidChange(listener: () => void): Unsubscribe;
}

/**
 * The built-in sources in front of the MCP servers, as one ToolSource: availability, approvals,
 * search, the Tools view and result shaping treat a built-in tool exactly as a server's, and its
 * tools are listed first. A built-in source's name is reserved (no MCP server may take it).
 */
export function combineSources(builtIns: readonly BuiltInSource[], mcp: ToolSource): ToolSource {
  const owner = (name: string): BuiltInSource | undefined => builtIns.find((s) => name.startsWith(`${s.name}__`));
  const names = new Set(builtIns.map((s) => s.name));
  return {
    tools: () => [...builtIns.flatMap((s) => s.tools()), ...mcp.tools()],
    runningServers: () => new Set([...names, ...mcp.runningServers()]),
    idleServers: () => mcp.idleServers(),
    startingServers: () => mcp.startingServers(),
    offServers: (): readonly ServerKeys[] => mcp.offServers(),
    signInServers: () => mcp.signInServers(),
    review: (name, args, callId) => owner(name)?.review(name, args, callId) ?? mcp.review(name, args, callId),
    call: (name, args, signal, hooks) => owner(name)?.call(name, args, signal, hooks) ?? mcp.call(name, args, signal, hooks),
    ensureRunning: (server) => (names.has(server) ? Promise.resolve() : mcp.ensureRunning(server)),
    serverOfKey: (key) => owner(key)?.name ?? (names.has(key) ? key : mcp.serverOfKey(key)),
    onDidChange: (listener) => {
      const unsubscribes = [...builtIns.map((s) => s.onDidChange(listener)), mcp.onDidChange(listener)];
      return () => {
        for (const u of unsubscribes) u();
      };
    },
  };
}
