// A ToolSource (src/core/tools/toolSource.ts) over a fixed catalogue with every server up: what the
// turn-loop benches run against, so they measure Quiver and not server processes.
export function staticToolSource(tools, call) {
  return {
    tools: () => tools,
    runningServers: () => new Set(tools.map((t) => t.server)),
    idleServers: () => new Set(),
    // MCP tools get no review: their run policy alone decides whether they ask.
    review: async () => ({ kind: 'none' }),
    call,
    ensureRunning: async () => undefined,
    startingServers: () => new Set(),
    offServers: () => [],
    signInServers: () => [],
    serverOfKey: () => undefined,
    onDidChange: () => () => undefined,
  };
}
