import assert from 'node:assert/strict';
import { parseToolsConfig } from '../../../src/core/availability';
import { conversationAssignment, conversationToggle } from '../../../src/core/stream/toggles';
import type { ToolDefinition } from '../../../src/core/tools/definitions';
import { ownsToolKey, qualifyToolName } from '../../../src/mcp/qualifiedNames';

const tool = (name: string): ToolDefinition => ({ name, server: 'fs', toolName: name, description: name, inputSchema: { type: 'object' } });
const catalogue = [tool('fs__read'), tool('fs__write'), tool('fs__wipe'), tool('fs__deploy')];
const config = parseToolsConfig({
  '*': { enable: 'discoverable' },
  fs__read: { enable: 'on' },
  fs__wipe: { enable: { availability: 'off', allow_toggle: 'never' } },
  fs__deploy: { enable: 'explicit' },
}).value;

describe('conversation toggles', () => {
  it('named disable records a user delta', () => {
    assert.deepEqual(conversationToggle(config, catalogue, { kind: 'named', name: 'fs__read' }, 'disable'), { delta: { fs__read: { enable: { availability: 'off' } } }, changed: ['fs__read'] });
  });

  it('a locked tool refuses a named toggle with a message that says so', () => {
    const r = conversationToggle(config, catalogue, { kind: 'named', name: 'fs__wipe' }, 'enable');
    assert.equal(r.delta, undefined);
    assert.match(r.refused ?? '', /locked/);
  });

  it('bulk enable moves only `any` tools (discoverable → on), not if_named or never', () => {
    assert.deepEqual(conversationToggle(config, catalogue, { kind: 'bulk' }, 'enable').changed, ['fs__write']);
  });

  it('unknown tool names are refused', () => {
    assert.match(conversationToggle(config, catalogue, { kind: 'named', name: 'nope' }, 'enable').refused ?? '', /no tool named "nope"/);
  });

  it('key assignment with the legacy state alias', () => {
    assert.deepEqual(conversationAssignment(config, catalogue, 'tools.fs__read.enable.state=false').delta, { fs__read: { enable: { state: false } } });
    assert.match(conversationAssignment(config, catalogue, 'tools.fs__wipe.enable.state=true').refused ?? '', /locked/);
    assert.ok(conversationAssignment(config, catalogue, 'tools.fs__wipe.run=ask').delta);
    const serverLocked = parseToolsConfig({ 'gh__*': { enable: { availability: 'off', allow_toggle: 'never' } } }).value;
    assert.match(conversationAssignment(serverLocked, [], 'tools.gh__deploy.enable=on').refused ?? '', /locked/, 'a lock inherited from <server>__* holds while the server is down');
  });

  it('a server-wide lock holds for a down server whose tool names shorten its name', () => {
    const locked = parseToolsConfig({ 'My Server__*': { enable: { availability: 'off', allow_toggle: 'never' } } }).value;
    const shortened = qualifyToolName('My Server', 'deploy');
    const serverOfKey = (key: string) => (ownsToolKey('My Server')(key) ? 'My Server' : undefined);
    assert.match(conversationAssignment(locked, [], `tools.${shortened}.enable=on`, serverOfKey).refused ?? '', /locked/);
  });
});

