import assert from 'node:assert/strict';
import { computeToolSets, parseToolsConfig, type ToolSets } from '../../../src/core/availability';
import type { ToolDefinition } from '../../../src/core/tools/definitions';

const tool = (name: string, server: string | undefined): ToolDefinition => ({
  name, server, toolName: name.split('__')[1] ?? name, description: `does ${name}`, inputSchema: { type: 'object' },
});

const catalogue = [
  tool('search_tools', undefined),
  tool('fs__read', 'fs'), tool('fs__write', 'fs'), tool('fs__delete', 'fs'), tool('fs__wipe', 'fs'), tool('fs__stat', 'fs'),
  tool('gh__issue', 'gh'),
];
const config = parseToolsConfig({
  '*': { enable: 'discoverable' },
  search_tools: { enable: 'on' },
  fs__read: { enable: 'on' },
  fs__write: { enable: 'off' },
  fs__delete: { enable: { availability: 'off', allow_toggle: 'never' } },
  fs__wipe: { enable: 'explicit' },
}).value;

const names = (sets: ToolSets) => ({
  permitted: sets.permitted.map((t) => t.name),
  offered: sets.offered.map((t) => t.name),
  searchable: sets.searchable.map((t) => t.name),
});

describe('permitted, offered and searchable sets', () => {
  it('without a forced tool', () => {
    const sets = computeToolSets({ catalogue, config, runningServers: new Set(['fs', 'gh']) });
    assert.deepEqual(names(sets), {
      permitted: ['search_tools', 'fs__read', 'fs__stat', 'gh__issue'],
      offered: ['search_tools', 'fs__read'],
      searchable: ['fs__stat', 'gh__issue'],
    });
  });

  it('a forced off tool is permitted and offered, never searchable', () => {
    const sets = computeToolSets({ catalogue, config, forced: 'fs__write', runningServers: new Set(['fs', 'gh']) });
    assert.deepEqual(names(sets), {
      permitted: ['search_tools', 'fs__read', 'fs__write', 'fs__stat', 'gh__issue'],
      offered: ['search_tools', 'fs__read', 'fs__write'],
      searchable: ['fs__stat', 'gh__issue'],
    });
  });

  it('a forced discoverable tool is offered and leaves the searchable set', () => {
    const sets = computeToolSets({ catalogue, config, forced: 'gh__issue', runningServers: new Set(['fs', 'gh']) });
    assert.deepEqual(names(sets).offered, ['search_tools', 'fs__read', 'gh__issue']);
    assert.deepEqual(names(sets).searchable, ['fs__stat']);
  });

  it('a locked-off tool is hidden everywhere, even when forced', () => {
    const sets = computeToolSets({ catalogue, config, forced: 'fs__delete', runningServers: new Set(['fs', 'gh']) });
    for (const set of Object.values(names(sets))) assert.ok(!set.includes('fs__delete'));
  });

  it('an explicit (off unless named) tool is permitted only when forced', () => {
    assert.ok(!names(computeToolSets({ catalogue, config, runningServers: new Set(['fs']) })).permitted.includes('fs__wipe'));
    assert.ok(names(computeToolSets({ catalogue, config, forced: 'fs__wipe', runningServers: new Set(['fs']) })).offered.includes('fs__wipe'));
  });

  it('tools of a server that is not running are in no set; builtins always are', () => {
    const sets = computeToolSets({ catalogue, config, runningServers: new Set(['gh']) });
    assert.deepEqual(names(sets), { permitted: ['search_tools', 'gh__issue'], offered: ['search_tools'], searchable: ['gh__issue'] });
  });

  it('offered is a subset of permitted, and searchable and offered never overlap', () => {
    for (const forced of [undefined, 'fs__write', 'gh__issue', 'fs__delete']) {
      const sets = computeToolSets({ catalogue, config, runningServers: new Set(['fs', 'gh']), ...(forced ? { forced } : {}) });
      const permitted = new Set(sets.permitted);
      assert.ok(sets.offered.every((t) => permitted.has(t)));
      assert.ok(sets.searchable.every((t) => permitted.has(t) && !sets.offered.includes(t)));
    }
  });
});
