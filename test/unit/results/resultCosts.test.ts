import assert from 'node:assert/strict';
import { requestUsageOf, resultCostsOf } from '../../../src/core/overhead/requestUsage';
import { renderOverheadReport } from '../../../src/core/overhead/report';
import { readSetting } from '../../../src/core/settings/registry';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolOverview } from '../../../src/core/overhead/toolOverview';

const at = '2026-12-01T00:00:00.000Z';
const usage: StreamEvent = { type: 'usage', model: 'claude-sonnet-5-5', inputTokens: 10, outputTokens: 5, cacheReadTokens: 1_000, cacheWriteTokens: 500, at };
const result = (id: string, name: string, chars: number, kept?: number): StreamEvent => ({
  type: 'tool_result', toolUseId: id, name, content: [{ type: 'text', text: 'x'.repeat(chars) }], isError: false,
  ...(kept !== undefined ? { kept: { ref: `r${id}`, status: 'truncated' as const, shownChars: chars, totalChars: kept } } : {}), at,
});
const stream: StreamEvent[] = [usage, result('1', 'db__query', 7_000, 700_000), usage, result('2', 'read_result', 3_500), result('3', 'fs__read', 350), usage];
const overview: ToolOverview = { groups: { on: [], discoverable: [], off: [] }, offeredTokens: 0, permittedTokens: 0, searchableCount: 0 } as unknown as ToolOverview;

describe('what tool results cost, in the overhead breakdown', () => {
  it('per request: the result tokens first sent with it, and all it carried', () => {
    assert.deepEqual(requestUsageOf(stream).map((r) => r.results), [{ added: 0, carried: 0 }, { added: 2_000, carried: 2_000 }, { added: 1_100, carried: 3_100 }]);
  });

  it('for the conversation: how many were shortened, to how much of their whole, and how often they were read back', () => {
    assert.deepEqual(resultCostsOf(stream), { count: 3, sentTokens: 3_100, kept: 1, keptShownTokens: 2_000, keptWholeTokens: 200_000, reads: 1 });
    const report = renderOverheadReport({ overview, activity: { searches: [], turns: 1, turnsWithSearch: 0, turnsUsingFoundTools: 0 }, contextWindowTokens: 1_000_000, conversationTitle: 't', requests: requestUsageOf(stream), results: resultCostsOf(stream) });
    assert.match(report, /\| 2 \| 10 \| 1000 \| 500 \| 66% \| 2k \/ 2k \|\n\| 3 \| 10 \| 1000 \| 500 \| 66% \| 1\.1k \/ 3\.1k \|/);
    assert.match(report, /### Tool results\n\n- 3 tool results, ~3\.1k tokens as the model got them; 1 was shortened to ~2k tokens of ~200k \(kept whole; 1 `read_result` call read from it\)/);
  });
});

describe('the result settings', () => {
  it('take whole numbers of tokens, 0 or more; a bad value names the setting and what is accepted', () => {
    assert.equal(readSetting('resultsMaxTokens', 0).value, 0);
    assert.equal(readSetting('resultsThresholdTokens', 20_000).value, 20_000);
    for (const bad of [-1, 2.5, '2000', null]) {
      const read = readSetting('resultsMaxTokens', bad);
      assert.equal(read.value, 2_000);
      assert.match(read.issue ?? '', /^quiver\.results\.maxTokens: .* is not valid .*It must be a whole number of estimated tokens, 0 or more .*Using 2000; fix it in settings\.json/);
      assert.match(readSetting('resultsThresholdTokens', bad).issue ?? '', /^quiver\.results\.thresholdTokens: .*Using 8000/);
    }
  });
});
