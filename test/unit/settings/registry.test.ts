import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { effortSetting, readSetting, settingIssues, SETTINGS, SETTINGS_SECTION } from '../../../src/core/settings/registry';

const root = resolve(__dirname, '..', '..', '..', '..');
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

  it('quiver.anthropic.baseUrl needs its scheme; an invalid one gives an example and stops requests rather than fall back', () => {
    for (const good of ['', 'http://localhost:8080', 'https://proxy.example.com/anthropic']) assert.equal(readSetting('anthropicBaseUrl', good).issue, undefined, good);
    for (const bad of ['localhost:37783', 'ftp://proxy', 'http:/x', 'not a url']) {
      assert.match(readSetting('anthropicBaseUrl', bad).issue ?? '', /^quiver\.anthropic\.baseUrl: ".*" is not valid \(not an http:\/\/ or https:\/\/ URL\)\. It must be empty \(api\.anthropic\.com\) or a whole URL with its scheme, like http:\/\/localhost:8080\. Quiver sends no request until it is fixed in settings\.json\.$/, bad);
    }
  });

  it('package.json\'s pattern for quiver.anthropic.baseUrl accepts what the registry accepts, so the Settings editor flags the same values', () => {
    const declared = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { pattern?: string; patternErrorMessage?: string }> } };
    }).contributes.configuration.properties[SETTINGS.anthropicBaseUrl.key];
    const pattern = new RegExp(declared?.pattern ?? '');
    assert.match(declared?.patternErrorMessage ?? '', /http:\/\/localhost:8080/);
    for (const value of ['', 'http://localhost:8080', 'https://a.example/v1', 'localhost:37783', 'http://', 'ftp://a', 'http:/x', 'http://a b']) {
      assert.equal(pattern.test(value), readSetting('anthropicBaseUrl', value).issue === undefined, value);
    }
  });

  it('settingIssues lists every registered setting whose written value falls back, by key, and only those', () => {
    const written: Record<string, unknown> = { 'quiver.search.maxLoadTokens': -5, 'quiver.maxCyclesPerTurn': 3, 'quiver.anthropic.baseUrl': 'localhost:37783' };
    const issues = settingIssues((key) => written[key]);
    assert.deepEqual([...issues.keys()].sort(), ['quiver.anthropic.baseUrl', 'quiver.search.maxLoadTokens']);
    assert.equal(issues.get('quiver.search.maxLoadTokens'), 'quiver.search.maxLoadTokens: -5 is not valid (Too small: expected number to be >=0). Using 4000; fix it in settings.json.');
    for (const key of registered) assert.ok(key.startsWith(`${SETTINGS_SECTION}.`), key);
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

  it('quiver.maxTokens: 0 (the default) means the model\'s own limit; a bad value names the setting and says what is accepted', () => {
    assert.equal(readSetting('maxTokens', undefined).value, 0);
    assert.equal(readSetting('maxTokens', 16_000).value, 16_000);
    for (const bad of [-1, 2.5, '8192']) {
      const read = readSetting('maxTokens', bad);
      assert.equal(read.value, 0);
      assert.match(read.issue ?? '', /^quiver\.maxTokens: .* is not valid \(.*\)\. 0 uses the model's own limit \(at most 32,000\); .* Using 0; fix it in settings\.json\.$/);
    }
  });

  it('quiver.thinking takes adaptive or between_tools, never disabled; quiver.effort a level or empty for the model\'s default', () => {
    assert.equal(readSetting('thinking', undefined).value, 'adaptive');
    assert.equal(readSetting('thinking', 'between_tools').value, 'between_tools');
    const disabled = readSetting('thinking', 'disabled');
    assert.equal(disabled.value, 'adaptive');
    assert.match(disabled.issue ?? '', /^quiver\.thinking: "disabled" is not valid .*"adaptive".*"between_tools"/);
    assert.equal(effortSetting(readSetting('effort', undefined).value), undefined);
    assert.equal(effortSetting(readSetting('effort', '').value), undefined);
    assert.equal(effortSetting(readSetting('effort', 'xhigh').value), 'xhigh');
    assert.match(readSetting('effort', 'extreme').issue ?? '', /^quiver\.effort: "extreme" is not valid/);
  });

  it('quiver.cache.ttl takes auto (the default), 5m or 1h; a bad value names the setting, what it takes, and falls back to auto', () => {
    assert.equal(readSetting('cacheTtl', undefined).value, 'auto');
    assert.equal(readSetting('cacheTtl', '1h').value, '1h');
    for (const bad of ['60m', 60, 'hour']) {
      const read = readSetting('cacheTtl', bad);
      assert.equal(read.value, 'auto');
      assert.match(read.issue ?? '', /^quiver\.cache\.ttl: .* is not valid \(.*\)\. It must be "auto", "5m" or "1h" \(a string, with the unit\)\. Using "auto"; fix it in settings\.json\.$/, String(bad));
    }
  });

  it('package.json offers exactly the values the registry accepts for quiver.thinking, quiver.effort and quiver.cache.ttl', () => {
    const properties = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { enum?: unknown[]; markdownEnumDescriptions?: unknown[] }> } };
    }).contributes.configuration.properties;
    for (const name of ['thinking', 'effort', 'cacheTtl'] as const) {
      const declared = properties[SETTINGS[name].key];
      assert.deepEqual(declared?.enum, SETTINGS[name].schema.options, SETTINGS[name].key);
      assert.equal(declared?.markdownEnumDescriptions?.length, declared?.enum?.length, `${SETTINGS[name].key} describes every value`);
    }
  });
});
