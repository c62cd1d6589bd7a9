import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { transcriptOf } from '../../../src/core/stream/transcript';
import type { ToolDefinition } from '../../../src/core/tools';
import { discoveriesOf } from '../../../src/core/turn/discoveries';

const at = '2026-12-01T00:00:00.000Z';
const tool = (name: string): ToolDefinition => ({ name, server: 'gh', toolName: name, description: name, inputSchema: { type: 'object' } });
const search = (id: string, found: [string, 'usable' | 'found, unavailable'][]): StreamEvent[] => [
  { type: 'assistant_message', content: [{ type: 'tool_use', id, name: 'search_tools', input: { query: 'q' } }], stopReason: 'tool_use', at },
  { type: 'tool_result', toolUseId: id, name: 'search_tools', content: [{ type: 'text', text: '{}' }], isError: false, found: found.map(([name, status]) => ({ name, status })), at },
];

describe('discoveries: where each promoted tool is loaded', () => {
  const events: StreamEvent[] = [{ type: 'user_message', text: 'go', at }, ...search('s1', [['gh__a', 'usable'], ['gh__off', 'found, unavailable']]), ...search('s2', [['gh__a', 'usable'], ['gh__b', 'usable']])];

  it('the latest result reporting a tool usable loads it (a tool found again is loaded where it was found again); found, unavailable loads nothing', () => {
    assert.deepEqual(discoveriesOf(events, transcriptOf(events), [tool('gh__a'), tool('gh__b'), tool('gh__off')]), [
      { toolUseId: 's2', tools: ['gh__a', 'gh__b'] },
    ]);
  });

  it('a tool no longer offered is loaded nowhere', () => {
    assert.deepEqual(discoveriesOf(events, transcriptOf(events), [tool('gh__b')]), [{ toolUseId: 's2', tools: ['gh__b'] }]);
  });

  it('a search result the transcript no longer holds loads nothing', () => {
    const withdrawn: StreamEvent[] = [...events, { type: 'restart', at }];
    const messages = transcriptOf(withdrawn);
    assert.equal(JSON.stringify(messages).includes('"s2"'), false);
    assert.deepEqual(discoveriesOf(withdrawn, messages, [tool('gh__a'), tool('gh__b')]), [{ toolUseId: 's1', tools: ['gh__a'] }]);
  });

  it('never loads a tool after the model first called it: the result before the call does, or none (offered up front)', () => {
    const call = (id: string, name: string): StreamEvent[] => [
      { type: 'assistant_message', content: [{ type: 'tool_use', id, name, input: {} }], stopReason: 'tool_use', at },
      { type: 'tool_result', toolUseId: id, name, content: [{ type: 'text', text: 'ok' }], isError: false, at },
    ];
    const calledBetween: StreamEvent[] = [{ type: 'user_message', text: 'go', at }, ...search('s1', [['gh__a', 'usable']]), ...call('c1', 'gh__a'), ...search('s2', [['gh__a', 'usable']])];
    assert.deepEqual(discoveriesOf(calledBetween, transcriptOf(calledBetween), [tool('gh__a')]), [{ toolUseId: 's1', tools: ['gh__a'] }]);
    const calledFirst: StreamEvent[] = [{ type: 'user_message', text: 'go', at }, ...call('c0', 'gh__a'), ...search('s1', [['gh__a', 'usable']])];
    assert.deepEqual(discoveriesOf(calledFirst, transcriptOf(calledFirst), [tool('gh__a')]), []);
  });
});
