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

  it('the first result reporting a tool usable loads it; found, unavailable loads nothing', () => {
    assert.deepEqual(discoveriesOf(events, transcriptOf(events), [tool('gh__a'), tool('gh__b'), tool('gh__off')]), [
      { toolUseId: 's1', tools: ['gh__a'] },
      { toolUseId: 's2', tools: ['gh__b'] },
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
});
