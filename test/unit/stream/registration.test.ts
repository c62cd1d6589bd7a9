import assert from 'node:assert/strict';
import { searchToolsRegistered } from '../../../src/core/stream/registration';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolDefinition } from '../../../src/core/tools';

const at = '2026-11-30T00:00:00.000Z';
const tool = (name: string, server: string | undefined): ToolDefinition => ({ name, server, toolName: name, description: name, inputSchema: { type: 'object' } });
const catalogue = [tool('search_tools', undefined), tool('fs__read', 'fs'), tool('fs__deploy', 'fs')];
const delta = (source: 'settings' | 'user' | 'promotion', tools: Record<string, unknown>): StreamEvent => ({ type: 'config_delta', source, tools, at });

describe('search_tools registration (monotone, from the stream)', () => {
  it('no discoverable tool at any position: not registered', () => {
    assert.equal(searchToolsRegistered([delta('settings', { fs__deploy: { enable: 'off' } })], catalogue), false);
  });

  it('a delta that introduces a discoverable tool registers it', () => {
    const events = [delta('settings', {}), delta('user', { fs__deploy: { enable: 'discoverable' } })];
    assert.equal(searchToolsRegistered(events.slice(0, 1), catalogue), false);
    assert.equal(searchToolsRegistered(events, catalogue), true);
  });

  it('stays registered after every discoverable tool was promoted', () => {
    const events = [delta('settings', { 'fs__*': { enable: 'discoverable' } }), delta('promotion', { fs__read: { enable: { availability: 'on' } }, fs__deploy: { enable: { availability: 'on' } } })];
    assert.equal(searchToolsRegistered(events, catalogue), true);
  });

  it('builtins themselves being discoverable through `*` do not count', () => {
    assert.equal(searchToolsRegistered([delta('settings', { search_tools: { enable: 'discoverable' } })], catalogue), false);
  });
});
