import type { ToolOverview, ToolOverviewItem } from './toolOverview';

export interface ServerCost {
  readonly server: string | undefined;
  readonly tokens: number;
  readonly tools: readonly ToolOverviewItem[];
}

/** Offered tools grouped per server, costliest first; tools inside a server costliest first. */
export function offeredCostByServer(overview: ToolOverview): readonly ServerCost[] {
  const byServer = new Map<string | undefined, ToolOverviewItem[]>();
  for (const item of overview.groups.on) {
    const list = byServer.get(item.tool.server) ?? [];
    list.push(item);
    byServer.set(item.tool.server, list);
  }
  return [...byServer].map(([server, tools]) => ({
    server,
    tokens: tools.reduce((n, t) => n + t.tokens, 0),
    tools: [...tools].sort((a, b) => b.tokens - a.tokens),
  })).sort((a, b) => b.tokens - a.tokens);
}

/** The costliest MCP server offered up front: what the warning's quick action makes discoverable. */
export function costliestServer(overview: ToolOverview): string | undefined {
  return offeredCostByServer(overview).find((s) => s.server !== undefined)?.server;
}
