import assert from 'node:assert/strict';
import { fallbackCapabilities, isTableModel, TABLE_MODEL_IDS } from '../../../src/providers/anthropic/modelTable';

const CURRENT = [
  'claude-fable-5-2', 'claude-mythos-5-2', 'claude-fable-5-1', 'claude-mythos-5-1', 'claude-opus-5-5', 'claude-sonnet-5-5',
  'claude-haiku-5-5', 'claude-sonnet-5', 'claude-opus-5', 'claude-fable-5', 'claude-mythos-5', 'claude-opus-4-8', 'claude-opus-4-7',
  'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5',
];

describe('fallback capability table', () => {
  it('knows every current model', () => {
    assert.deepEqual([...TABLE_MODEL_IDS].sort(), [...CURRENT].sort());
  });

  it('the default model, Sonnet 5.5: no forced tool use, no `disabled`, between_tools, prefix check, system messages', () => {
    const c = fallbackCapabilities('claude-sonnet-5-5');
    assert.equal(c.source, 'fallback_table');
    assert.equal(c.forcedToolChoice, false);
    assert.deepEqual(c.thinking, { supported: true, adaptive: true, betweenTools: true, disabled: false });
    assert.equal(c.preservedThinking, true);
    assert.equal(c.systemMessages, true);
    assert.equal(c.toolSearch, true);
    assert.equal(c.maxTokens, 128_000);
    assert.equal(c.contextWindow, 1_000_000);
  });

  it('forced tool use is refused exactly on Sonnet 5.5, Opus 5.5, Haiku 5.5 and Fable/Mythos 5.1+', () => {
    const refusing = CURRENT.filter((id) => !fallbackCapabilities(id).forcedToolChoice).sort();
    assert.deepEqual(refusing, ['claude-fable-5-1', 'claude-fable-5-2', 'claude-haiku-5-5', 'claude-mythos-5-1', 'claude-mythos-5-2', 'claude-opus-5-5', 'claude-sonnet-5-5']);
  });

  it('the prefix check runs on the models the prefix-checks page lists', () => {
    assert.deepEqual(CURRENT.filter((id) => fallbackCapabilities(id).preservedThinking).sort(),
      ['claude-fable-5-1', 'claude-fable-5-2', 'claude-haiku-5-5', 'claude-mythos-5-1', 'claude-mythos-5-2', 'claude-opus-5-5', 'claude-sonnet-5-5']);
  });

  it('system messages: not Sonnet 5 and nothing before Opus 4.8', () => {
    for (const id of ['claude-sonnet-5', 'claude-opus-4-7', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5']) {
      assert.equal(fallbackCapabilities(id).systemMessages, false, id);
      assert.equal(fallbackCapabilities(id).toolChanges, false, id);
    }
    for (const id of ['claude-opus-4-8', 'claude-opus-5', 'claude-fable-5', 'claude-opus-5-5', 'claude-haiku-5-5']) assert.equal(fallbackCapabilities(id).systemMessages, true, id);
  });

  it('thinking `disabled` is never claimed where it is refused, and adaptive never where the 4.5 models refuse it', () => {
    for (const id of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1', 'claude-fable-5-2', 'claude-fable-5']) assert.equal(fallbackCapabilities(id).thinking.disabled, false, id);
    for (const id of ['claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-5']) assert.equal(fallbackCapabilities(id).thinking.adaptive, false, id);
    assert.deepEqual(CURRENT.filter((id) => fallbackCapabilities(id).thinking.betweenTools), ['claude-sonnet-5-5']);
  });

  it('effort levels: none on Sonnet 4.5 and Haiku 4.5, no xhigh before Opus 4.7', () => {
    assert.deepEqual(fallbackCapabilities('claude-haiku-4-5').efforts, []);
    assert.deepEqual(fallbackCapabilities('claude-sonnet-4-5').efforts, []);
    assert.deepEqual(fallbackCapabilities('claude-opus-4-6').efforts, ['low', 'medium', 'high', 'max']);
    assert.ok(fallbackCapabilities('claude-opus-4-7').efforts.includes('xhigh'));
  });

  it('a dated snapshot takes its alias\'s row; a near miss does not', () => {
    assert.deepEqual({ ...fallbackCapabilities('claude-haiku-4-5-20251001'), id: 'x' }, { ...fallbackCapabilities('claude-haiku-4-5'), id: 'x' });
    assert.equal(isTableModel('claude-opus-4-5-20251101'), true);
    assert.equal(isTableModel('claude-sonnet-5-50'), false);
    assert.equal(fallbackCapabilities('claude-sonnet-5-5').thinking.betweenTools, true, 'not mistaken for Sonnet 5');
  });

  it('an unknown model gets the shape no model refuses', () => {
    const c = fallbackCapabilities('claude-future-9');
    assert.equal(c.id, 'claude-future-9');
    assert.equal(c.forcedToolChoice, false);
    assert.equal(c.systemMessages, false);
    assert.equal(c.toolChanges, false);
    assert.equal(c.toolSearch, false);
    assert.deepEqual(c.thinking, { supported: false, adaptive: false, betweenTools: false, disabled: false });
    assert.deepEqual(c.efforts, []);
    assert.equal(c.maxTokens, 4096);
    assert.equal(c.preservedThinking, true);
  });
});
