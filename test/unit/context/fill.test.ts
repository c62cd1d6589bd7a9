import assert from 'node:assert/strict';
import { contextFillOf, contextFillText, isContextFillWarning } from '../../../src/core/context/fill';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-12-02T00:00:00.000Z';
const usage = (model: string, input: number, read: number, write: number): StreamEvent => ({ type: 'usage', model, inputTokens: input, outputTokens: 99, cacheReadTokens: read, cacheWriteTokens: write, at });
const hi: StreamEvent = { type: 'user_message', text: 'hi', at };
const windows: Record<string, number> = { 'claude-sonnet-5-5': 200_000, 'claude-opus-5-5': 1_000_000 };
const windowOf = (model: string): number => windows[model] ?? 0;

describe('how full the context window was at the last request', () => {
  it('is the last usage event\'s whole prompt (input, cache reads, cache writes; not output) over its model\'s window', () => {
    const events = [usage('claude-sonnet-5-5', 10, 0, 1_000), hi, usage('claude-sonnet-5-5', 310, 80_000, 2_000)];
    const fill = contextFillOf(events, windowOf);
    assert.deepEqual(fill, { model: 'claude-sonnet-5-5', tokens: 82_310, window: 200_000, share: 0.41155 });
    assert.equal(contextFillText(fill), 'Context window: 41% full at the last request (82,310 of 200,000 tokens, claude-sonnet-5-5)');
    assert.equal(isContextFillWarning(fill), false);
  });

  it('takes the window of the model that answered last, not an assumed 200,000', () => {
    const fill = contextFillOf([usage('claude-opus-5-5', 0, 250_000, 0)], windowOf);
    assert.equal(contextFillText(fill!), 'Context window: 25% full at the last request (250,000 of 1,000,000 tokens, claude-opus-5-5)');
  });

  it('warns past 80%, not at it', () => {
    assert.equal(isContextFillWarning(contextFillOf([usage('claude-sonnet-5-5', 0, 160_000, 0)], windowOf)!), false);
    assert.equal(isContextFillWarning(contextFillOf([usage('claude-sonnet-5-5', 0, 160_001, 0)], windowOf)!), true);
  });

  it('is undefined before any request was answered', () => {
    assert.equal(contextFillOf([hi], windowOf), undefined);
  });
});
