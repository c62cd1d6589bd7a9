import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { callRefusal } from '../../../src/core/turn/callEligibility';
import { orderTools } from '../../../src/core/turn/toolOrder';
import { forcedRefusal, planTools } from '../../../src/core/turn/toolPlan';
import { parseToolsConfig } from '../../../src/core/availability';

const at = '2026-11-30T00:00:00.000Z';
const tool = (name: string, server: string | undefined): ToolDefinition => ({ name, server, toolName: name, description: name, inputSchema: { type: 'object' } });
const builtins = [tool('search_tools', undefined), tool('describe_tools', undefined)];
const mcpTools = [tool('gh__issue', 'gh'), tool('fs__write', 'fs'), tool('fs__read', 'fs'), tool('fs__wipe', 'fs')];
const settings = (tools: Record<string, unknown>): StreamEvent => ({ type: 'config_delta', source: 'settings', tools, at });
const running = new Set(['fs', 'gh']);

describe('tool plan for a request', () => {
  it('orders builtins first, then by qualified name', () => {
    assert.deepEqual(orderTools([tool('b__x', 'b'), tool('describe_tools', undefined), tool('a__y', 'a'), tool('search_tools', undefined)]).map((t) => t.name), ['search_tools', 'describe_tools', 'a__y', 'b__x']);
  });

  it('without discoverable tools: no builtins, every on tool offered', () => {
    const plan = planTools({ events: [settings({})], mcpTools, builtins, runningServers: running });
    assert.deepEqual(plan.offered.map((t) => t.name), ['fs__read', 'fs__wipe', 'fs__write', 'gh__issue']);
    assert.equal(plan.searchRegistered, false);
  });

  it('`*` off with one server discoverable still offers search_tools: builtins take availability from their own entry only', () => {
    const plan = planTools({ events: [settings({ '*': { enable: 'off' }, 'gh__*': { enable: 'discoverable' } })], mcpTools, builtins, runningServers: running });
    assert.deepEqual(plan.offered.map((t) => t.name), ['search_tools', 'describe_tools']);
    assert.deepEqual(plan.searchable.map((t) => t.name), ['gh__issue']);
    const own = planTools({ events: [settings({ '*': { enable: 'discoverable' }, search_tools: { enable: 'off' } })], mcpTools, builtins, runningServers: running });
    assert.ok(!own.offered.some((t) => t.name === 'search_tools'), 'its own entry can still turn it off');
  });

  it('with `*` discoverable: builtins offered (not made discoverable themselves), the rest searchable', () => {
    const plan = planTools({ events: [settings({ '*': { enable: 'discoverable' }, fs__read: { enable: 'on' } })], mcpTools, builtins, runningServers: running });
    assert.deepEqual(plan.offered.map((t) => t.name), ['search_tools', 'describe_tools', 'fs__read']);
    assert.deepEqual(plan.searchable.map((t) => t.name).sort(), ['fs__wipe', 'fs__write', 'gh__issue']);
  });

  it('a locked-off tool cannot be forced', () => {
    const config = parseToolsConfig({ fs__wipe: { enable: { availability: 'off', allow_toggle: 'never' } }, fs__write: { enable: 'off' } }).value;
    assert.match(forcedRefusal('fs__wipe', config, 'fs') ?? '', /locked off/);
    assert.equal(forcedRefusal('fs__write', config, 'fs'), undefined);
  });

  it('says why a call outside the permitted set does not run', () => {
    const plan = planTools({ events: [settings({ fs__write: { enable: 'off' }, fs__wipe: { enable: { availability: 'off', allow_toggle: 'never' } } })], mcpTools, builtins, runningServers: running });
    assert.equal(callRefusal('fs__read', plan, running), undefined);
    assert.match(callRefusal('fs__write', plan, running) ?? '', /turned off/);
    assert.match(callRefusal('fs__wipe', plan, running) ?? '', /locked off/);
    assert.match(callRefusal('db__query', plan, running) ?? '', /server "db" is not running/);
    assert.match(callRefusal('made_up', plan, running) ?? '', /no tool with that name/);
  });
});
