import assert from 'node:assert/strict';
import { parseToolsConfig, resolveTool } from '../../../src/core/availability';
import { resultLimitFor } from '../../../src/core/results/resultLimit';
import type { ToolDefinition } from '../../../src/core/tools/definitions';

const settings = { maxTokens: 2_000, thresholdTokens: 8_000 };
const tool = (hint?: number): ToolDefinition => ({ name: 'db__query', server: 'db', toolName: 'query', description: '', inputSchema: { type: 'object' }, ...(hint !== undefined ? { resultSizeHintChars: hint } : {}) });
const resolved = (tools: unknown) => resolveTool(parseToolsConfig(tools).value, { name: 'db__query', server: 'db' });

describe('a tool\'s result limit', () => {
  it('is the settings\' by default', () => {
    assert.deepEqual(resultLimitFor(resolved({}), tool(), settings), { budgetTokens: 2_000, thresholdTokens: 8_000 });
  });

  it('a server\'s size hint moves the threshold only, capped at 500,000 characters', () => {
    assert.deepEqual(resultLimitFor(resolved({}), tool(70_000), settings), { budgetTokens: 2_000, thresholdTokens: 20_000 });
    assert.deepEqual(resultLimitFor(resolved({}), tool(5_000_000), settings), { budgetTokens: 2_000, thresholdTokens: Math.ceil(500_000 / 3.5) });
  });

  it('the user\'s resultTokens beats the hint, from the tool\'s entry, its server\'s or "*"', () => {
    assert.deepEqual(resultLimitFor(resolved({ db__query: { resultTokens: 300 } }), tool(70_000), settings), { budgetTokens: 300, thresholdTokens: 300 });
    assert.deepEqual(resultLimitFor(resolved({ 'db__*': { resultTokens: 0 } }), tool(), settings), { budgetTokens: 0, thresholdTokens: 0 });
    assert.equal(resultLimitFor(resolved({ '*': { resultTokens: 'whole' } }), tool(), settings), 'whole');
  });
});

describe('resultTokens in a quiver.tools entry', () => {
  it('takes a whole number of tokens or "whole"', () => {
    for (const value of [0, 500, 'whole'] as const) {
      const parsed = parseToolsConfig({ db__query: { resultTokens: value } });
      assert.deepEqual(parsed.issues, []);
      assert.equal(parsed.value.get('db__query')?.resultTokens, value);
    }
  });

  it('a bad value is reported with what is accepted and leaves the tool bounded as usual (not off)', () => {
    for (const bad of [-1, 2.5, '500', 'all', null]) {
      const parsed = parseToolsConfig({ db__query: { enable: 'on', resultTokens: bad } });
      assert.equal(parsed.issues.length, 1);
      assert.equal(parsed.issues[0]?.path, 'quiver.tools["db__query"].resultTokens');
      assert.match(parsed.issues[0]?.message ?? '', /is not a valid resultTokens\. Use a whole number of estimated tokens, 0 or more .* or "whole"/);
      assert.equal(parsed.issues[0]?.turnsOff, undefined);
      assert.deepEqual(parsed.value.get('db__query'), { availability: 'on', allowToggle: 'any' });
    }
  });

  it('an unknown key names every key an entry accepts', () => {
    assert.match(parseToolsConfig({ x: { results: 5 } }).issues[0]?.message ?? '', /A tool entry accepts "enable", "run", "resultTokens"\./);
  });
});
