import assert from 'node:assert/strict';
import { resolveTool, parseToolsConfig } from '../../../src/core/availability';
import { buildToolOverview, formatTokens, unloadedExplanation } from '../../../src/core/overhead/toolOverview';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { promotedTools, unloadedTools, upcomingPlan } from '../../../src/core/turn/upcomingPlan';
import type { StreamEvent } from '../../../src/core/stream/events';

const tool = (name: string, server: string | undefined, size = 100): ToolDefinition => ({
  name, server, toolName: name, description: 'x'.repeat(size), inputSchema: { type: 'object' },
});
const builtins = [tool('search_tools', undefined, 40), tool('describe_tools', undefined, 60)];
const mcpTools = [tool('fs__read', 'fs'), tool('fs__write', 'fs', 300), tool('fs__rm', 'fs'), tool('gh__pr', 'gh', 200), tool('gh__deploy', 'gh')];
const settingsTools = {
  '*': { enable: 'discoverable' },
  fs__read: { enable: 'on' },
  fs__rm: { enable: { availability: 'off', allow_toggle: 'never' } },
  gh__deploy: { enable: 'off' },
};
const estimateTokens = (t: ToolDefinition) => t.description.length / 10;
const running = new Set(['fs', 'gh']);

describe('tool overview for the tree and the status bar', () => {
  it('before any turn, reflects the settings the next turn will record', () => {
    const plan = upcomingPlan({ events: [], mcpTools, builtins, runningServers: running, settingsTools });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcpTools], plan, promoted: new Set(), estimateTokens });
    assert.deepEqual(overview.groups.on.map((i) => i.tool.name), ['search_tools', 'describe_tools', 'fs__read']);
    assert.deepEqual(overview.groups.discoverable.map((i) => i.tool.name), ['fs__write', 'gh__pr']);
    assert.deepEqual(overview.groups.off.map((i) => i.tool.name), ['gh__deploy']);
    assert.equal(overview.offeredTokens, 4 + 6 + 10);
    assert.equal(overview.permittedTokens, 4 + 6 + 10 + 30 + 20);
    assert.equal(overview.offeredCount, 3);
    assert.equal(overview.searchableCount, 2);
  });

  it('leaves the builtins out while no tool is discoverable', () => {
    const plan = upcomingPlan({ events: [], mcpTools, builtins, runningServers: running, settingsTools: {} });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcpTools], plan, promoted: new Set(), estimateTokens });
    assert.deepEqual(overview.groups.on.map((i) => i.tool.name), ['fs__read', 'fs__write', 'fs__rm', 'gh__pr', 'gh__deploy']);
    assert.equal(overview.groups.off.length, 0);
  });

  it('marks a promoted tool under On, and drops the mark when the user turns it off', () => {
    const events: StreamEvent[] = [
      { type: 'config_delta', source: 'settings', tools: settingsTools, at: '' },
      { type: 'config_delta', source: 'promotion', tools: { gh__pr: { enable: { availability: 'on' } }, fs__write: { enable: { availability: 'on' } } }, at: '' },
      { type: 'config_delta', source: 'user', tools: { fs__write: { enable: { availability: 'off' } } }, at: '' },
    ];
    const plan = upcomingPlan({ events, mcpTools, builtins, runningServers: running, settingsTools });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcpTools], plan, promoted: promotedTools(events, plan), estimateTokens });
    assert.equal(overview.groups.on.find((i) => i.tool.name === 'gh__pr')?.promoted, true);
    assert.equal(overview.groups.off.find((i) => i.tool.name === 'fs__write')?.promoted, false);
  });

  it('marks a tool this conversation unloaded, says what settings say, and drops the mark when it is back or settings decide again', () => {
    const unloadEvents: StreamEvent[] = [
      { type: 'config_delta', source: 'settings', tools: settingsTools, at: '' },
      { type: 'config_delta', source: 'promotion', tools: { fs__write: { enable: { availability: 'on' } }, gh__pr: { enable: { availability: 'on' } } }, at: '' },
      { type: 'config_delta', source: 'user', tools: { fs__write: { enable: { availability: 'off' } } }, at: '' },
      // A run policy of the conversation is no unload.
      { type: 'config_delta', source: 'user', tools: { gh__deploy: { run: 'unattended' } }, at: '' },
    ];
    const settings = parseToolsConfig(settingsTools).value;
    const overviewOf = (events: StreamEvent[], tools: unknown = settingsTools) => {
      const plan = upcomingPlan({ events, mcpTools, builtins, runningServers: running, settingsTools: tools });
      return buildToolOverview({ catalogue: [...builtins, ...mcpTools], plan, promoted: promotedTools(events, plan), unloaded: unloadedTools(events, plan, tools), settingsAvailability: (t) => resolveTool(settings, t).availability, estimateTokens });
    };
    const overview = overviewOf(unloadEvents);
    const fsWrite = overview.groups.off.find((i) => i.tool.name === 'fs__write');
    assert.equal(fsWrite?.unloadedInConversation, true);
    assert.equal(fsWrite?.settingsAvailability, 'discoverable');
    assert.equal(fsWrite && unloadedExplanation(fsWrite), 'Settings say discoverable. This conversation unloaded it, so it is off here only; other conversations follow settings. Make On or Make Discoverable undoes the unload in this conversation only; settings stay as they are.');
    assert.equal(overview.groups.off.find((i) => i.tool.name === 'gh__deploy')?.unloadedInConversation, false, 'off by settings');
    assert.equal(overview.groups.on.find((i) => i.tool.name === 'gh__pr')?.unloadedInConversation, false);
    assert.equal(buildToolOverview({ catalogue: mcpTools, plan: upcomingPlan({ events: unloadEvents, mcpTools, builtins, runningServers: running, settingsTools }), promoted: new Set(), estimateTokens }).groups.off.find((i) => i.tool.name === 'fs__write')?.unloadedInConversation, false, 'no unloaded set given, none marked');
    const reloaded = overviewOf([...unloadEvents, { type: 'config_delta', source: 'user', tools: { fs__write: { enable: { availability: 'on' } } }, at: '' }]);
    assert.equal(reloaded.groups.on.find((i) => i.tool.name === 'fs__write')?.unloadedInConversation, false);
    const edited = { ...settingsTools, fs__write: { enable: 'off' } };
    const settled = overviewOf([...unloadEvents, { type: 'config_delta', source: 'settings', tools: { fs__write: { enable: 'off' } }, at: '' }], edited);
    assert.equal(settled.groups.off.find((i) => i.tool.name === 'fs__write')?.unloadedInConversation, false, 'settings had the last word');
    const pending = overviewOf(unloadEvents, edited);
    assert.equal(pending.groups.off.find((i) => i.tool.name === 'fs__write')?.unloadedInConversation, false, 'a settings edit the next turn records has the last word too');
  });

  it('says whether each tool asks, as the next request runs it: the conversation\'s own /set counts', () => {
    const events: StreamEvent[] = [
      { type: 'config_delta', source: 'settings', tools: settingsTools, at: '' },
      { type: 'config_delta', source: 'user', tools: { fs__read: { run: 'unattended' } }, at: '' },
    ];
    const plan = upcomingPlan({ events, mcpTools, builtins, runningServers: running, settingsTools });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcpTools], plan, promoted: new Set(), estimateTokens });
    const runOf = (name: string) => [...overview.groups.on, ...overview.groups.discoverable].find((i) => i.tool.name === name)?.run;
    assert.deepEqual([runOf('fs__read'), runOf('fs__write'), runOf('search_tools')], ['unattended', 'ask', 'unattended']);
  });

  it('formats token counts compactly', () => {
    assert.deepEqual([formatTokens(950), formatTokens(3100), formatTokens(3000), formatTokens(123_456)], ['950', '3.1k', '3k', '123k']);
  });
});
