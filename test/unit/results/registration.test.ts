import assert from 'node:assert/strict';
import { readResultRegistered } from '../../../src/core/stream/registration';
import { streamEventSchema } from '../../../src/core/stream/eventSchema';
import type { StreamEvent } from '../../../src/core/stream/events';
import { planTools } from '../../../src/core/turn/toolPlan';
import { callRefusal } from '../../../src/core/turn/callEligibility';
import type { ToolDefinition } from '../../../src/core/tools/definitions';

const at = '2026-12-01T00:00:00.000Z';
const mcp: ToolDefinition[] = [{ name: 'db__query', server: 'db', toolName: 'query', description: 'Query.', inputSchema: { type: 'object' } }];
const whole: StreamEvent = { type: 'tool_result', toolUseId: 't1', name: 'db__query', content: [{ type: 'text', text: 'rows' }], isError: false, at };
const kept: StreamEvent = { ...whole, toolUseId: 't2', kept: { ref: 'r1', status: 'truncated', shownChars: 7_000, totalChars: 212_000 } };
const plan = (events: readonly StreamEvent[]) => planTools({ events, mcpTools: mcp, builtins: [], runningServers: new Set(['db']) });

describe('read_result\'s registration', () => {
  it('is offered once a result of the stream was kept, and stays: derived from the stream alone', () => {
    assert.equal(readResultRegistered([whole]), false);
    assert.deepEqual(plan([whole]).offered.map((t) => t.name), ['db__query']);
    assert.equal(readResultRegistered([whole, kept]), true);
    assert.deepEqual(plan([whole, kept, { type: 'turn_start', at }]).offered.map((t) => t.name), ['read_result', 'db__query']);
  });

  it('its own entry turns it off; a call then is refused saying why', () => {
    const off: StreamEvent = { type: 'config_delta', source: 'settings', tools: { read_result: { enable: 'off' } }, at };
    const p = plan([kept, off]);
    assert.deepEqual(p.offered.map((t) => t.name), ['db__query']);
    assert.match(callRefusal('read_result', p, new Set(['db'])) ?? '', /read_result was not run: no result of this conversation was shortened, so there is nothing kept to read \(or the user turned it off\)/);
  });

  it('a stream written before results were kept still loads, and a kept record must name a proper ref', () => {
    assert.equal(streamEventSchema.safeParse(whole).success, true);
    assert.equal(streamEventSchema.safeParse(kept).success, true);
    assert.equal(streamEventSchema.safeParse({ ...kept, kept: { ref: '../x', status: 'truncated', shownChars: 1, totalChars: 2 } }).success, false);
  });
});
