import assert from 'node:assert/strict';
import { requestUsageOf, resultCostsOf } from '../../../src/core/overhead/requestUsage';
import type { ContextFill } from '../../../src/core/context/fill';
import { renderOverheadReport } from '../../../src/core/overhead/report';
import { searchActivity } from '../../../src/core/search/activity';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { buildToolOverview } from '../../../src/core/overhead/toolOverview';
import { planTools } from '../../../src/core/turn/toolPlan';
import { promotedTools, unloadedTools } from '../../../src/core/turn/upcomingPlan';

const at = '2026-12-01T00:00:00.000Z';
const tool = (name: string, server: string | undefined): ToolDefinition => ({ name, server, toolName: name.split('__').pop() ?? name, description: 'd'.repeat(70), inputSchema: { type: 'object' } });
const builtins = [tool('search_tools', undefined), tool('describe_tools', undefined)];
const mcp = [tool('gh__issue', 'gh'), tool('gh__pr', 'gh'), tool('fs__read', 'fs'), tool('fs__wipe', 'fs')];
const search = (id: string, query: string, found: string[], notLoaded?: string[]): StreamEvent[] => [
  { type: 'assistant_message', content: [{ type: 'tool_use', id, name: 'search_tools', input: { query } }], stopReason: 'tool_use', at },
  { type: 'config_delta', source: 'promotion', tools: Object.fromEntries(found.map((n) => [n, { enable: { availability: 'on' } }])), at },
  { type: 'tool_result', toolUseId: id, name: 'search_tools', content: [], isError: false, found: found.map((name) => ({ name, status: 'usable' as const })), ...(notLoaded ? { notLoaded } : {}), at },
];
const call = (id: string, name: string): StreamEvent => ({ type: 'assistant_message', content: [{ type: 'tool_use', id, name, input: {} }], stopReason: 'tool_use', at });
const events: StreamEvent[] = [
  { type: 'turn_start', at },
  { type: 'config_delta', source: 'settings', tools: { '*': { enable: 'discoverable' }, fs__read: { enable: 'on' }, fs__wipe: { enable: 'off' } }, at },
  { type: 'user_message', text: 'open an issue', at },
  ...search('s1', 'create | issue', ['gh__issue'], ['gh__pr']),
  call('c1', 'gh__issue'),
  { type: 'turn_end', reason: 'done', at },
  { type: 'turn_start', at },
  { type: 'user_message', text: 'thanks', at },
  { type: 'turn_end', reason: 'done', at },
];

describe('the overhead breakdown', () => {
  it('counts searches, what they found and promoted, and the turns that used a found tool', () => {
    const activity = searchActivity(events);
    assert.equal(activity.turns, 2);
    assert.equal(activity.turnsWithSearch, 1);
    assert.equal(activity.turnsUsingFoundTools, 1);
    assert.deepEqual(activity.searches, [{ query: 'create | issue', found: [{ name: 'gh__issue', usable: true }], notLoaded: ['gh__pr'], promoted: ['gh__issue'], called: ['gh__issue'] }]);
  });

  it('credits a tool two searches found to the first, which promoted it', () => {
    const twice = [...search('s1', 'a', ['gh__issue']), { ...search('s2', 'b', ['gh__issue'])[2]!, toolUseId: 's2' } as StreamEvent];
    assert.deepEqual(searchActivity(twice).searches.map((s) => s.promoted), [['gh__issue'], []]);
  });

  it('renders per server and tool, with availability, promotions and the conversation, escaping markdown', () => {
    const plan = planTools({ events, mcpTools: mcp, builtins, runningServers: new Set(['gh', 'fs']) });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcp], plan, promoted: promotedTools(events, plan), estimateTokens: () => 100 });
    const report = renderOverheadReport({ overview, activity: searchActivity(events), contextWindowTokens: 200_000, conversationTitle: 'open an issue', requests: [], results: resultCostsOf(events) });
    assert.match(report, /Loaded up front on every request: \*\*~300\*\* tokens \(3 tools\)/);
    assert.match(report, /Loaded by search in this conversation: ~100 tokens \(1 tools\)/);
    assert.match(report, /\| gh \| 1 \| 1 \| 0 \| 100 \|/);
    assert.match(report, /\| fs \| 1 \| 0 \| 1 \| 100 \|/);
    assert.match(report, /\| gh \| issue \| on \(promoted in this conversation\) \| 100 \|/);
    assert.match(report, /Searches: 1, in 1 of 2 turns/);
    assert.ok(report.includes('1. **create \\| issue** — found: gh\\_\\_issue; not loaded: gh\\_\\_pr; promoted: gh\\_\\_issue; called later: gh\\_\\_issue'), 'a pipe or underscores in a name cannot break the markup');
  });

  it('says how full the context window was at the last request, against the model\'s own window, and warns past 80%', () => {
    const plan = planTools({ events, mcpTools: mcp, builtins, runningServers: new Set(['gh', 'fs']) });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcp], plan, promoted: promotedTools(events, plan), estimateTokens: () => 100 });
    const render = (contextFill?: ContextFill): string => renderOverheadReport({ overview, activity: searchActivity(events), contextWindowTokens: 1_000_000, conversationTitle: 't', requests: [], results: resultCostsOf(events), ...(contextFill ? { contextFill } : {}) });
    assert.ok(!render().includes('Context window:'), 'no line before the first request');
    const half = render({ model: 'claude-opus-5-5', tokens: 500_000, window: 1_000_000, share: 0.5 });
    assert.match(half, /^- Context window: 50% full at the last request \(500,000 of 1,000,000 tokens, claude-opus-5-5\)$/m);
    const full = render({ model: 'claude-opus-5-5', tokens: 900_000, window: 1_000_000, share: 0.9 });
    assert.match(full, /^- Context window: 90% full at the last request \(900,000 of 1,000,000 tokens, claude-opus-5-5\) — \*\*past 80%\*\*: the next requests may not fit; a new chat starts empty$/m);
  });

  it('keeps every table narrow: lists of names and free text go in lists, never in table cells', () => {
    const names = (n: number, prefix: string): string[] => Array.from({ length: n }, (_, i) => `${prefix}__a_rather_long_tool_name_${i}`);
    const many: StreamEvent[] = Array.from({ length: 6 }, (_, i) => search(`s${i}`, `find the tool for task number ${i} in a long query`, names(3, `srv${i}`), names(7, `more${i}`))).flat();
    const at = '2026-12-01T00:00:00.000Z';
    const stream: StreamEvent[] = [...events, ...many, { type: 'wire_change', cause: 'settings', added: names(5, 'gh'), removed: [], text: 'on', at },
      { type: 'usage', model: 'claude-sonnet-5-5', inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 3000, cacheMiss: 'the tools changed since the previous request (1,990 tokens not read from cache)', at }];
    const plan = planTools({ events: stream, mcpTools: mcp, builtins, runningServers: new Set(['gh', 'fs']) });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcp], plan, promoted: promotedTools(stream, plan), estimateTokens: () => 100 });
    const report = renderOverheadReport({ overview, activity: searchActivity(stream), contextWindowTokens: 200_000, conversationTitle: 't', requests: requestUsageOf(stream), results: resultCostsOf(stream) });
    const rows = report.split('\n').filter((line) => line.startsWith('|'));
    assert.ok(rows.length > 0);
    for (const row of rows) assert.ok(row.length <= 80, `a table row of ${row.length} characters: ${row}`);
    assert.match(report, /^- Request 1: tool changes before it: settings \+gh\\_\\_a\\_rather/m);
    assert.match(report, /; cache miss: the tools changed since the previous request/);
  });

  it('lists each request with what the cache read and wrote, the tool changes before it, and why it missed', () => {
    const at = '2026-12-01T00:00:00.000Z';
    const usage = (read: number, write: number, cacheMiss?: string): StreamEvent => ({ type: 'usage', model: 'claude-sonnet-5-5', inputTokens: 10, outputTokens: 5, cacheReadTokens: read, cacheWriteTokens: write, ...(cacheMiss !== undefined ? { cacheMiss } : {}), at });
    const stream: StreamEvent[] = [usage(0, 2000), { type: 'wire_change', cause: 'settings', added: [], removed: ['gh__pr'], text: 'off', at }, usage(1990, 50), usage(0, 2100, 'the tools changed (1,990 tokens not read from cache)')];
    const requests = requestUsageOf(stream);
    assert.deepEqual(requests.map((r) => [Math.round(100 * r.readShare), r.changes, r.cacheMiss]), [[0, [], undefined], [97, ['settings −gh__pr'], undefined], [0, [], 'the tools changed (1,990 tokens not read from cache)']]);
    const plan = planTools({ events, mcpTools: mcp, builtins, runningServers: new Set(['gh', 'fs']) });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcp], plan, promoted: promotedTools(events, plan), estimateTokens: () => 100 });
    const report = renderOverheadReport({ overview, activity: searchActivity(events), contextWindowTokens: 200_000, conversationTitle: 't', requests, results: resultCostsOf(stream) });
    assert.ok(report.includes('| 2 | 10 | 1990 | 50 | 97% |'));
    assert.ok(report.includes('| 3 | 10 | 0 | 2100 | 0% |'));
    assert.ok(report.includes('- Request 2: tool changes before it: settings −gh\\_\\_pr\n- Request 3: cache miss: the tools changed (1,990 tokens not read from cache)'));
    assert.ok(!report.includes('- Request 1:'), 'a request with nothing to say has no note');
  });
  it('tells an Unload in this conversation apart from settings, in the tool table and the request notes', () => {
    const at = '2026-12-01T00:00:00.000Z';
    const usage: StreamEvent = { type: 'usage', model: 'claude-sonnet-5-5', inputTokens: 10, outputTokens: 5, cacheReadTokens: 1990, cacheWriteTokens: 50, at };
    const stream: StreamEvent[] = [
      ...events,
      { type: 'config_delta', source: 'user', tools: { gh__issue: { enable: { availability: 'off' } } }, at },
      { type: 'config_delta', source: 'settings', tools: { fs__read: { enable: 'off' } }, at },
      { type: 'wire_change', cause: 'settings', added: [], removed: ['fs__read', 'gh__issue'], text: 'off', at },
      usage,
      { type: 'config_delta', source: 'user', tools: { gh__issue: { enable: { availability: 'on' } } }, at },
      { type: 'wire_change', cause: 'settings', added: ['gh__issue'], removed: [], text: 'on', at },
      usage,
    ];
    const requests = requestUsageOf(stream);
    assert.deepEqual(requests.map((r) => r.changes), [['settings −fs__read; unloaded in this conversation −gh__issue'], ['loaded in this conversation +gh__issue']]);
    const unloaded = stream.slice(0, -3);
    const plan = planTools({ events: unloaded, mcpTools: mcp, builtins, runningServers: new Set(['gh', 'fs']) });
    const overview = buildToolOverview({ catalogue: [...builtins, ...mcp], plan, promoted: promotedTools(unloaded, plan), unloaded: unloadedTools(unloaded, plan), settingsAvailability: () => 'discoverable', estimateTokens: () => 100 });
    const report = renderOverheadReport({ overview, activity: searchActivity(unloaded), contextWindowTokens: 200_000, conversationTitle: 't', requests: requestUsageOf(unloaded), results: resultCostsOf(unloaded) });
    assert.match(report, /\| gh \| issue \| off \(unloaded in this conversation; settings say discoverable\) \| 100 \|/);
    assert.match(report, /\| fs \| read \| off \| 100 \|/);
    assert.match(report, /tool changes before it: settings −fs\\_\\_read; unloaded in this conversation −gh\\_\\_issue/);
  });
});
