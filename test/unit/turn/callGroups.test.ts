import assert from 'node:assert/strict';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { callGroups } from '../../../src/core/turn/callGroups';

const def = (name: string, readOnly: boolean | undefined, server: string | undefined = 'fs'): ToolDefinition => ({
  name, server, toolName: name, description: '', inputSchema: { type: 'object' },
  ...(readOnly !== undefined ? { annotations: { readOnlyHint: readOnly } } : {}),
});
const permitted = [def('fs__read', true), def('fs__stat', true), def('fs__write', false), def('fs__move', undefined), def('search_tools', true, undefined)];
const use = (name: string, n: number) => ({ type: 'tool_use' as const, id: `t${n}`, name, input: {} });
const shape = (names: string[]) => callGroups(names.map(use), permitted).map((g) => g.map((c) => `${c.call.name}@${c.index}`));

describe('call groups (which calls of a reply may run at once)', () => {
  it('consecutive read-only MCP calls share a group', () => {
    assert.deepEqual(shape(['fs__read', 'fs__stat', 'fs__read']), [['fs__read@0', 'fs__stat@1', 'fs__read@2']]);
  });

  it('a call that may write runs alone and splits the reads around it', () => {
    assert.deepEqual(shape(['fs__read', 'fs__write', 'fs__stat', 'fs__read']), [['fs__read@0'], ['fs__write@1'], ['fs__stat@2', 'fs__read@3']]);
  });

  it('no hint, readOnlyHint false, builtins and unknown tools each run alone', () => {
    assert.deepEqual(shape(['fs__move', 'fs__move', 'search_tools', 'nope__x', 'fs__write']), [['fs__move@0'], ['fs__move@1'], ['search_tools@2'], ['nope__x@3'], ['fs__write@4']]);
  });

  it('keeps every call exactly once, in reply order', () => {
    const names = ['fs__read', 'fs__move', 'fs__read', 'fs__stat', 'search_tools', 'fs__read'];
    assert.deepEqual(callGroups(names.map(use), permitted).flat().map((c) => c.index), [0, 1, 2, 3, 4, 5]);
  });
});
