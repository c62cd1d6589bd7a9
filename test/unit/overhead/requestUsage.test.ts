import assert from 'node:assert/strict';
import { requestUsageOf } from '../../../src/core/overhead/requestUsage';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-12-02T00:00:00.000Z';
const usage = (read: number, output: number, extra: Partial<Extract<StreamEvent, { type: 'usage' }>> = {}): StreamEvent =>
  ({ type: 'usage', model: 'claude-sonnet-5-5', inputTokens: 100, outputTokens: output, cacheReadTokens: read, cacheWriteTokens: 0, at, ...extra });

describe('what context management saved, per request', () => {
  it('a clearing and a threshold compaction are priced in their own request', () => {
    const [request] = requestUsageOf([usage(50_000, 10, { cleared: { toolUses: 3, inputTokens: 40_000 }, compacted: { inputTokens: 160_000, outputTokens: 900 } })]);
    assert.deepEqual(request?.managed, ['cleared 3 old tool results (40k tokens saved)', 'compacted the conversation: read 160k tokens, summarized in 900 (110k tokens saved)']);
  });

  it("Quiver's own compaction is priced by the request after it: what the conversation read before against after", () => {
    const events: StreamEvent[] = [usage(119_900, 10), usage(149_900, 700), { type: 'compacted', summary: 's', at }, usage(1_900, 20)];
    const requests = requestUsageOf(events);
    assert.deepEqual(requests.map((r) => r.managed), [[], ['compacted the conversation: read 150k tokens, summarized in 700 (148k tokens saved: the next request read 2k)'], []]);
  });

  it('an on-demand compaction (the whole request) is priced by the next request too, and says so when none came yet', () => {
    const onDemand = usage(0, 600, { inputTokens: 150_000, compacted: { inputTokens: 150_000, outputTokens: 600 } });
    assert.deepEqual(requestUsageOf([onDemand]).map((r) => r.managed), [['compacted the conversation: read 150k tokens, summarized in 600']]);
    assert.deepEqual(requestUsageOf([onDemand, usage(900, 5)]).at(0)?.managed, ['compacted the conversation: read 150k tokens, summarized in 600 (149k tokens saved: the next request read 1k)']);
  });
});
