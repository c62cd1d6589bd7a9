import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readSetting, SETTINGS } from '../../src/core/settingsRegistry';

const root = resolve(__dirname, '..', '..', '..');
const declared = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, unknown> } };
}).contributes.configuration.properties).sort();
const registered = Object.values(SETTINGS).map((s) => s.key).sort();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('settings registry', () => {
  it('declares in package.json exactly the settings the code registers', () => {
    assert.deepEqual(registered, declared);
  });

  it('reads no quiver.* setting by a literal key outside the registry', () => {
    const literalRead = /getConfiguration\(\s*['"`]quiver['"`]|\.(?:get|inspect|update|affectsConfiguration)(?:<[^>]*>)?\(\s*['"`]quiver\./g;
    const offenders = sources(join(root, 'src')).filter((file) => !file.endsWith('settingsRegistry.ts'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(literalRead)].map((m) => `${file}: ${m[0]}`));
    assert.deepEqual(offenders, []);
  });

  it('package.json defaults agree with the registry fallbacks', () => {
    const properties = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    }).contributes.configuration.properties;
    for (const setting of Object.values(SETTINGS)) assert.deepEqual(properties[setting.key]?.default, setting.fallback, setting.key);
  });

  it('an invalid value falls back and the message names the setting and how to fix it', () => {
    const read = readSetting('maxCyclesPerTurn', 'lots');
    assert.equal(read.value, 25);
    assert.match(read.issue ?? '', /^quiver\.maxCyclesPerTurn: "lots" is not valid .*fix it in settings\.json/);
    assert.equal(readSetting('maxCyclesPerTurn', 3).value, 3);
    assert.match(readSetting('anthropicBaseUrl', 'not a url').issue ?? '', /quiver\.anthropic\.baseUrl/);
  });

  it('quiver.search.maxLoadTokens takes a whole number of tokens, 0 or more', () => {
    assert.equal(readSetting('searchMaxLoadTokens', 0).value, 0);
    assert.equal(readSetting('searchMaxLoadTokens', 12_000).value, 12_000);
    for (const bad of [-1, 2.5, '4000', null]) {
      const read = readSetting('searchMaxLoadTokens', bad);
      assert.equal(read.value, 4000);
      assert.match(read.issue ?? '', /^quiver\.search\.maxLoadTokens: .* is not valid .*Using 4000; fix it in settings\.json/);
    }
  });
});
