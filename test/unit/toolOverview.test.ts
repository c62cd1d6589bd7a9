import assert from 'node:assert/strict';
import { parseToolsConfig } from '../../src/core/availability';
import { buildToolOverview, formatTokens } from '../../src/core/toolOverview';
import type { ToolDefinition } from '../../src/core/tools';

const tool = (name: string, server: string | undefined, size = 100): ToolDefinition => ({
  name, server, toolName: name, description: 'x'.repeat(size), inputSchema: { type: 'object' },
});

describe('tool overview for the tree and the status bar', () => {
  const catalogue = [tool('search_tools', undefined, 40), tool('fs__read', 'fs'), tool('fs__write', 'fs', 300), tool('fs__rm', 'fs'), tool('gh__pr', 'gh', 200), tool('gh__deploy', 'gh')];
  const config = parseToolsConfig({
    '*': { enable: 'discoverable' },
    search_tools: { enable: 'on' },
    fs__read: { enable: 'on' },
    fs__rm: { enable: { availability: 'off', allow_toggle: 'never' } },
    gh__deploy: { enable: 'off' },
  }).value;
  const estimateTokens = (t: ToolDefinition) => t.description.length / 10;

  it('groups by availability, hides locked-off tools, and sums offered and permitted tokens', () => {
    const overview = buildToolOverview({ catalogue, config, runningServers: new Set(['fs', 'gh']), promoted: new Set(), estimateTokens });
    assert.deepEqual(overview.groups.on.map((i) => i.tool.name), ['search_tools', 'fs__read']);
    assert.deepEqual(overview.groups.discoverable.map((i) => i.tool.name), ['fs__write', 'gh__pr']);
    assert.deepEqual(overview.groups.off.map((i) => i.tool.name), ['gh__deploy']);
    assert.equal(overview.offeredTokens, 4 + 10);
    assert.equal(overview.permittedTokens, 4 + 10 + 30 + 20);
    assert.equal(overview.offeredCount, 2);
    assert.equal(overview.searchableCount, 2);
  });

  it('marks a promoted tool that is on, and not one the user later turned off', () => {
    const promotedConfig = parseToolsConfig({ '*': { enable: 'discoverable' }, gh__pr: { enable: 'on' }, fs__write: { enable: 'off' } }).value;
    const overview = buildToolOverview({ catalogue, config: promotedConfig, runningServers: new Set(['fs', 'gh']), promoted: new Set(['gh__pr', 'fs__write']), estimateTokens });
    assert.equal(overview.groups.on.find((i) => i.tool.name === 'gh__pr')?.promoted, true);
    assert.equal(overview.groups.off.find((i) => i.tool.name === 'fs__write')?.promoted, false);
  });

  it('formats token counts compactly', () => {
    assert.deepEqual([formatTokens(950), formatTokens(3100), formatTokens(3000), formatTokens(123_456)], ['950', '3.1k', '3k', '123k']);
  });
});
