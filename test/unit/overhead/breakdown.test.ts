import assert from 'node:assert/strict';
import { costliestServer, offeredCostByServer } from '../../../src/core/overhead/breakdown';
import type { ToolOverview, ToolOverviewItem } from '../../../src/core/overhead/toolOverview';

const item = (name: string, server: string | undefined, tokens: number): ToolOverviewItem => ({
  tool: { name, server, toolName: name, description: '', inputSchema: {} }, availability: 'on', allowToggle: 'any', run: 'ask', tokens, promoted: false, unloadedInConversation: false,
});
const overview: ToolOverview = {
  groups: { on: [item('search_tools', undefined, 900), item('a__x', 'a', 100), item('b__y', 'b', 300), item('a__z', 'a', 150)], discoverable: [], off: [] },
  offeredTokens: 1450, permittedTokens: 1450, offeredCount: 4, searchableCount: 0,
};

describe('overhead breakdown', () => {
  it('groups offered tools per server, costliest first', () => {
    assert.deepEqual(offeredCostByServer(overview).map((s) => [s.server, s.tokens, s.tools.map((t) => t.tool.name)]), [
      [undefined, 900, ['search_tools']], ['b', 300, ['b__y']], ['a', 250, ['a__z', 'a__x']],
    ]);
  });

  it('the costliest server is an MCP server, never the builtins', () => {
    assert.equal(costliestServer(overview), 'b');
    assert.equal(costliestServer({ ...overview, groups: { on: [], discoverable: [], off: [] } }), undefined);
  });
});
