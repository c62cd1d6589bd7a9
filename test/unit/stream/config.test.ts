import assert from 'node:assert/strict';
import { resolveTool } from '../../../src/core/availability';
import { configAt, recordedSettings, settingsDelta } from '../../../src/core/stream/config';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-11-30T00:00:00.000Z';
const delta = (source: 'settings' | 'user' | 'promotion', tools: Record<string, unknown>): StreamEvent => ({ type: 'config_delta', source, tools, at });
const fs = (name: string) => ({ name, server: 'fs' });

describe('config at a stream position', () => {
  it('is the fold of the deltas up to it', () => {
    const events = [delta('settings', { '*': { enable: 'discoverable' } }), delta('promotion', { fs__read: { enable: { availability: 'on' } } })];
    assert.equal(resolveTool(configAt(events, 1), fs('fs__read')).availability, 'discoverable');
    assert.equal(resolveTool(configAt(events), fs('fs__read')).availability, 'on');
    assert.equal(resolveTool(configAt([]), fs('fs__read')).availability, 'on');
  });

  it('legacy `state` inside a stored delta loads through parseToolsConfig', () => {
    const events = [delta('settings', {}), delta('user', { fs__write: { enable: { state: false } } })];
    assert.equal(resolveTool(configAt(events), fs('fs__write')).availability, 'off');
  });

  it('user deltas merge field by field; a settings delta replaces the key, null removes it', () => {
    const events = [
      delta('settings', { fs__write: { enable: { availability: 'on', allow_toggle: 'if_named' } } }),
      delta('user', { fs__write: { enable: { availability: 'off' } } }),
    ];
    assert.deepEqual(resolveTool(configAt(events), fs('fs__write')), { availability: 'off', allowToggle: 'if_named', run: 'ask' });
    const edited = [...events, delta('settings', { fs__write: { run: 'unattended' } })];
    assert.deepEqual(resolveTool(configAt(edited), fs('fs__write')), { availability: 'on', allowToggle: 'any', run: 'unattended' });
    const removed = [...edited, delta('settings', { fs__write: null })];
    assert.equal(resolveTool(configAt(removed), fs('fs__write')).run, 'ask');
  });

  it('a settings edit overrides only the fields it changed: "always allow" keeps a promotion', () => {
    const events = [
      delta('settings', { 'fs__*': { enable: 'discoverable' } }),
      delta('promotion', { fs__write: { enable: { availability: 'on' } } }),
      delta('settings', { fs__write: { run: 'unattended' } }),
    ];
    assert.deepEqual(resolveTool(configAt(events), fs('fs__write')), { availability: 'on', allowToggle: 'any', run: 'unattended' });
    const turnedOff = [...events, delta('settings', { fs__write: { run: 'unattended', enable: 'off' } })];
    assert.equal(resolveTool(configAt(turnedOff), fs('fs__write')).availability, 'off', 'an edit of enable supersedes the promotion');
  });

  it('the settings difference is per key, and empty when nothing changed', () => {
    const first = { '*': { enable: 'discoverable' }, fs__read: { enable: 'on' } };
    assert.deepEqual(settingsDelta(new Map(), first), first);
    const events = [delta('settings', first)];
    assert.deepEqual(settingsDelta(recordedSettings(events), { fs__read: { enable: 'on' }, '*': { enable: 'discoverable' } }), {});
    assert.deepEqual(settingsDelta(recordedSettings(events), { '*': { enable: 'discoverable' }, fs__list: { enable: 'off' } }), { fs__list: { enable: 'off' }, fs__read: null });
  });
});
