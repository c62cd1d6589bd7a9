import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { factOf, READ_AT, runLongConversation } from '../../fixtures/longConversation';

type ToolResult = Extract<StreamEvent, { type: 'tool_result' }>;

/*
 * A conversation of 300 requests on claude-sonnet-5-5 (test/fixtures/longConversation.ts: thinking
 * on, results of 3,000–24,000 characters, three promotions, a /set and an Unload), under the API's context
 * management as Quiver asks for it (quiver.context.management: auto): no request is refused or
 * over the window, the API clears old results and compacts at least once, and after each every
 * tool the conversation found is callable, the unloaded one is not, and a fact from a cleared
 * result is read again with read_result.
 */

describe('a conversation that never ends: 300 requests under context management', function () {
  this.timeout(600_000);

  for (const compactionToolChanges of [true, false]) {
    it(`clears, compacts, keeps every promotion, /set and Unload, and reads a cleared result again (server ${compactionToolChanges ? 'carries' : 'does not carry'} tool changes over a boundary)`, async () => {
      const { h, reads, failed } = await runLongConversation({ contextManagement: 'auto', compactionToolChanges });
      const { api } = h;
      try {
        assert.deepEqual(failed, [], 'every turn ends done');
        const requests = api.requests;
        assert.ok(requests.length >= 300, `${requests.length} requests`);
        assert.deepEqual(requests.filter((r) => r.rejected !== undefined).map((r) => r.rejected), [], 'no request refused');
        const window = 1_000_000;
        assert.ok(requests.every((r) => (r.cache?.prompt_tokens ?? 0) <= window), 'no request over the window');
        const compactions = requests.flatMap((r, i) => (r.compacted === true ? [i] : []));
        const clearings = requests.flatMap((r, i) => (r.cleared !== undefined ? [i] : []));
        assert.ok(compactions.length >= 1, 'at least one compaction');
        assert.ok(clearings.length >= 1, 'at least one clearing');
        // After each compaction and the last clearing (the /set came after the first), what the model is offered at the next request.
        for (const i of [...compactions, clearings.at(-1) as number]) {
          const next = requests[i + 1];
          if (next === undefined) continue;
          for (const tool of ['ci__deploy', 'db__query', 'wiki__edit', 'read_result']) assert.ok(next.offeredTools?.includes(tool), `request ${i + 1} offers ${tool}`);
          assert.ok(!next.offeredTools?.includes('mail__send'), `request ${i + 1} does not offer the unloaded mail__send`);
        }
        // Both reads found the fact of a page whose result was cleared, by the ref a note gave.
        assert.equal(reads.length, READ_AT.length, 'at each read turn a note names the kept results read_result still reads');
        const results = h.conversation.events().filter((e): e is ToolResult => e.type === 'tool_result' && e.name === 'read_result');
        assert.equal(results.length, READ_AT.length);
        results.forEach((r, k) => {
          const read = reads[k];
          assert.ok(read !== undefined);
          const got = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
          assert.ok(got.includes(factOf(read.page)), `read_result ${read.ref} finds ${factOf(read.page)}: ${got.slice(0, 200)}`);
          assert.equal(r.isError, false);
        });
        // The calls after a boundary ran: promoted and /set tools callable, never the unloaded one.
        const called = h.source.calls.map((c) => c.name);
        for (const tool of ['ci__deploy', 'db__query', 'wiki__edit']) assert.ok(called.filter((c) => c === tool).length >= 1 + READ_AT.length - 1, `${tool} ran after the boundaries`);
        assert.ok(!called.slice(called.indexOf('mail__send') + 1).includes('mail__send'), 'mail__send never ran after it was unloaded');
      } finally {
        await h.close();
      }
    });
  }
});
