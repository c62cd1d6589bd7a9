import assert from 'node:assert/strict';
import { searchToolsRegistered } from '../../../src/core/stream/registration';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-11-30T00:00:00.000Z';
const delta = (source: 'settings' | 'user' | 'promotion', tools: Record<string, unknown>): StreamEvent => ({ type: 'config_delta', source, tools, at });

describe('search_tools registration (monotone, from the stream)', () => {
  it('no discoverable tool at any position: not registered', () => {
    assert.equal(searchToolsRegistered([delta('settings', { fs__deploy: { enable: 'off' } })]), false);
  });

  it('a delta that introduces a discoverable tool registers it', () => {
    const events = [delta('settings', {}), delta('user', { fs__deploy: { enable: 'discoverable' } })];
    assert.equal(searchToolsRegistered(events.slice(0, 1)), false);
    assert.equal(searchToolsRegistered(events), true);
  });

  it('stays registered after every discoverable tool was promoted', () => {
    const events = [delta('settings', { 'fs__*': { enable: 'discoverable' } }), delta('promotion', { fs__read: { enable: { availability: 'on' } }, fs__deploy: { enable: { availability: 'on' } } })];
    assert.equal(searchToolsRegistered(events), true);
  });

  it('does not depend on which servers run: a crash cannot withdraw it', () => {
    assert.equal(searchToolsRegistered([delta('settings', { '*': { enable: 'discoverable' } })]), true);
  });

  it('a builtin\'s own entry at discoverable does not count', () => {
    assert.equal(searchToolsRegistered([delta('settings', { search_tools: { enable: 'discoverable' } })]), false);
  });
});
