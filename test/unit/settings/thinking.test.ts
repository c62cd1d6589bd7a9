import assert from 'node:assert/strict';
import { fallbackCapabilities } from '../../../src/providers/anthropic/modelTable';
import { isThinkingIssue, resolveThinking } from '../../../src/core/settings/thinking';

const sonnet55 = fallbackCapabilities('claude-sonnet-5-5');

describe('resolveThinking', () => {
  it('passes what the model takes through unchanged', () => {
    assert.deepEqual(resolveThinking('adaptive', undefined, sonnet55), { thinking: 'adaptive', effort: undefined });
    assert.deepEqual(resolveThinking('adaptive', 'max', sonnet55), { thinking: 'adaptive', effort: 'max' });
    assert.deepEqual(resolveThinking('between_tools', 'high', sonnet55), { thinking: 'between_tools', effort: 'high' });
    assert.deepEqual(resolveThinking('between_tools', undefined, sonnet55), { thinking: 'between_tools', effort: undefined });
  });

  it('between_tools with xhigh or max is an issue naming both settings and how to fix it', () => {
    for (const effort of ['xhigh', 'max'] as const) {
      const resolved = resolveThinking('between_tools', effort, sonnet55);
      assert.ok(isThinkingIssue(resolved));
      assert.match(resolved.issue, new RegExp(`^quiver\\.thinking "between_tools" cannot run at quiver\\.effort "${effort}": claude-sonnet-5-5`));
      assert.match(resolved.issue, /Set quiver\.effort to "high" or lower .* or set quiver\.thinking to "adaptive"\.$/);
    }
  });

  it('a model without between_tools thinks adaptively instead, with a note (and then max is fine)', () => {
    const resolved = resolveThinking('between_tools', 'max', fallbackCapabilities('claude-opus-5-5'));
    assert.ok(!isThinkingIssue(resolved));
    assert.equal(resolved.thinking, 'adaptive');
    assert.equal(resolved.effort, 'max');
    assert.match(resolved.note ?? '', /claude-opus-5-5 does not take quiver\.thinking "between_tools"/);
  });

  it('an effort the model lacks steps down to the highest it has below, or is left out', () => {
    const opus46 = resolveThinking('adaptive', 'xhigh', fallbackCapabilities('claude-opus-4-6'));
    assert.ok(!isThinkingIssue(opus46));
    assert.equal(opus46.effort, 'high');
    assert.match(opus46.note ?? '', /no "xhigh" effort; sending "high"/);
    const haiku = resolveThinking('adaptive', 'low', fallbackCapabilities('claude-haiku-4-5'));
    assert.ok(!isThinkingIssue(haiku));
    assert.equal(haiku.effort, undefined);
    assert.match(haiku.note ?? '', /has no effort setting/);
  });

  it('between_tools on a model that steps xhigh down to high is no contradiction', () => {
    const caps = { ...sonnet55, efforts: ['low', 'medium', 'high'] as const };
    assert.deepEqual(resolveThinking('between_tools', 'xhigh', caps), { thinking: 'between_tools', effort: 'high', note: 'claude-sonnet-5-5 has no "xhigh" effort; sending "high", the highest it has below it.' });
  });
});
