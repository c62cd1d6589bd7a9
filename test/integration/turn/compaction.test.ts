import assert from 'node:assert/strict';
import { SUMMARY_INSTRUCTION } from '../../../src/core/context';
import type { StreamEvent } from '../../../src/core/stream/events';
import { MODELS, type ModelSpec } from '../../fixtures/messagesApi/models';
import { reply, text, toolUse, type MessagesBody, type ScriptStep } from '../../fixtures/scriptedMessagesApi';
import { harness, offeredIn, signal, type Harness } from './harness';

/*
 * /compact and Quiver's automatic compaction, through the real SDK and the scripted Messages API:
 * on a model with the API's on-demand compaction (claude-sonnet-5-5) and on one without
 * (claude-fable-5-2, not in the compaction pages' model list: modelCapabilities.ts [CMP]). After
 * each, a tool the conversation promoted is callable, the one it unloaded is not, and the next
 * message works.
 */

const base = MODELS.find((m) => m.id === 'claude-fable-5-1') as ModelSpec;
/** Fable 5.2 as the scripted API serves it: Fable 5.1's specs, no server-side compaction, and a window small enough to fill. */
const FABLE_5_2: ModelSpec = { ...base, id: 'claude-fable-5-2', displayName: 'Claude Fable 5.2', createdAt: '2026-11-20T00:00:00Z', compaction: false, contextWindow: 200_000 };

const servers = () => ({ gh: { running: true, tools: [{ name: 'open_issue', description: 'Open a GitHub issue.', readOnly: true }, { name: 'close_issue', description: 'Close a GitHub issue.', readOnly: true }] } });
const TOOLS = { '*': { enable: 'discoverable' } };

const lastUserText = (body: MessagesBody): string => {
  const last = [...body.messages].reverse().find((m) => m.role === 'user');
  return (last?.content ?? []).flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('\n');
};

/** The summary the scripted model writes when asked, after checking it was asked as Quiver asks. */
const summarize = (summary: string): ScriptStep => ({
  kind: 'decide',
  decide: (body) => {
    assert.ok(lastUserText(body).endsWith(SUMMARY_INSTRUCTION), 'the summarizing request ends with the instruction');
    assert.equal(body['compaction'], undefined);
    return reply(text(summary));
  },
});

/** Finds gh's two tools (a search promotes both), then unloads close_issue. */
async function promoteAndUnload(h: Harness): Promise<void> {
  h.api.enqueue(reply(toolUse('s1', 'search_tools', { query: 'issue' })), reply(text('Found both.')));
  assert.equal((await h.session.send('find the issue tools', signal())).reason, 'done');
  await h.session.toggle({ kind: 'named', name: 'gh__close_issue' }, 'disable');
}

/** The next message after a compaction: calls the promoted tool, then the unloaded one, then answers. */
async function nextMessage(h: Harness): Promise<MessagesBody> {
  const from = h.api.requests.length;
  h.api.enqueue(reply(toolUse('o1', 'gh__open_issue', { arg: 'bug' })), reply(toolUse('c1', 'gh__close_issue', { arg: '1' })), reply(text('Opened it.')));
  const result = await h.session.send('open an issue for the bug', signal());
  assert.equal(result.reason, 'done', result.message);
  assert.deepEqual(h.api.requests.map((r) => r.rejected).filter((r) => r !== undefined), [], 'no request refused');
  assert.deepEqual(h.source.calls.map((c) => c.name), ['gh__open_issue'], 'the promoted tool ran; the unloaded one never did');
  const request = h.api.requests[from];
  assert.ok(request);
  // What the API offers at the end, as it reads the request (a block's tool changes included).
  const offered = request.offeredTools ?? [];
  assert.ok(offered.includes('gh__open_issue') && !offered.includes('gh__close_issue'), `offered after the boundary: ${offered.join(', ')}`);
  return request.body;
}

describe('/compact and automatic compaction', function () {
  this.timeout(120_000);

  it('on a model with on-demand compaction: asks the API, keeps its block and sends it back first, verbatim', async () => {
    const h = await harness({ servers: servers(), tools: TOOLS });
    try {
      await promoteAndUnload(h);
      const before = h.api.requests.length;
      const compacted = await h.session.compact(signal());
      assert.equal(compacted.reason, 'done', `${compacted.message ?? ''} ${h.api.requests.at(-1)?.rejected ?? ''}`);
      const request = h.api.requests[before];
      assert.deepEqual(request?.body['compaction'], { type: 'summarize' });
      assert.equal(request?.body['context_management'], undefined);
      assert.ok(request?.betas.includes('compact-2026-09-04'));
      const recorded = h.conversation.events().filter((e): e is Extract<StreamEvent, { type: 'assistant_message' }> => e.type === 'assistant_message' && e.onDemand === true);
      assert.equal(recorded.length, 1);
      const block = recorded[0]?.content[0];
      const body = await nextMessage(h);
      assert.deepEqual(body.messages[0], { role: 'assistant', content: [block?.type === 'compaction' ? block.wire : undefined] }, 'the block first, as returned');
      assert.equal(body.messages[1]?.role, 'user', 'then the new message');
    } finally {
      await h.close();
    }
  });

  it("on a model without it: Quiver's own summary opens a new wire segment with the same system and tools, and survives a reload", async () => {
    const h = await harness({ servers: servers(), tools: TOOLS, model: 'claude-fable-5-2', api: { models: [...MODELS, FABLE_5_2] } });
    try {
      await promoteAndUnload(h);
      // The last request before the boundary: its tools are the array as first sent and the deferred definitions appended to it.
      const first = h.api.requests.at(-1)?.body;
      h.api.enqueue(summarize('SUMMARY: the user found gh__open_issue and gh__close_issue, then unloaded gh__close_issue.'));
      assert.equal((await h.session.compact(signal())).reason, 'done');
      assert.equal(h.conversation.events().filter((e) => e.type === 'compacted').length, 1, 'the stream records the compaction');
      const reopened = await h.reopen();
      const from = h.api.requests.length;
      h.api.enqueue(reply(toolUse('o1', 'gh__open_issue', { arg: 'bug' })), reply(toolUse('c1', 'gh__close_issue', { arg: '1' })), reply(text('Opened it.')));
      assert.equal((await reopened.send('open an issue for the bug', signal())).reason, 'done');
      assert.deepEqual(h.source.calls.map((c) => c.name), ['gh__open_issue']);
      const body = h.api.requests[from]?.body;
      assert.ok(body && first);
      assert.deepEqual(body.tools, first.tools, 'tools as sent before');
      assert.deepEqual(body.system?.map((s) => s.text), first.system?.map((s) => s.text), 'system as first sent');
      assert.ok(JSON.stringify(body.messages[0]).includes('SUMMARY: the user found'), 'the segment opens with the summary');
      assert.ok(!JSON.stringify(body.messages).includes('find the issue tools'), 'nothing from before the boundary');
      assert.ok(offeredIn(body).includes('gh__open_issue') && !offeredIn(body).includes('gh__close_issue'), 'given back by an appended change');
      assert.deepEqual(h.api.requests.map((r) => r.rejected).filter((r) => r !== undefined), []);
    } finally {
      await h.close();
    }
  });

  it('compacts by itself before a request would pass the threshold, on a model without server-side compaction, and the turn goes on', async () => {
    const h = await harness({ servers: servers(), tools: TOOLS, model: 'claude-fable-5-2', api: { models: [...MODELS, FABLE_5_2] } });
    try {
      const big = (n: number): string => `Message ${n}: ${'a long paste of logs to read through. '.repeat(4_700)}`;
      for (let n = 1; n <= 2; n++) {
        h.api.enqueue(reply(text(`Read message ${n}.`)));
        assert.equal((await h.session.send(big(n), signal())).reason, 'done');
      }
      assert.equal(h.conversation.events().filter((e) => e.type === 'compacted').length, 0, 'not yet');
      // The third would make a prompt past 150,000 of the 200,000-token window; a fourth would not fit at all.
      for (let n = 3; n <= 4; n++) {
        if (n === 3) h.api.enqueue(summarize(`SUMMARY: the user pasted logs 1 to 3; answer message 3.`));
        h.api.enqueue(reply(text(`Read message ${n}.`)));
        const result = await h.session.send(big(n), signal());
        assert.equal(result.reason, 'done', result.message);
      }
      assert.equal(h.conversation.events().filter((e) => e.type === 'compacted').length, 1, 'one compaction');
      const prompts = h.api.requests.map((r) => r.cache?.prompt_tokens ?? 0);
      assert.deepEqual(h.api.requests.map((r) => r.rejected).filter((r) => r !== undefined), [], 'none refused');
      assert.ok(prompts.every((p) => p < 200_000), `every prompt within the window: ${prompts.join(', ')}`);
      assert.ok((prompts.at(-1) ?? 0) < 150_000, 'the last request, after the boundary, is under the threshold');
    } finally {
      await h.close();
    }
  });
});
