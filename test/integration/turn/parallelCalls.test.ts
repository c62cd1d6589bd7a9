import assert from 'node:assert/strict';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, lastToolResults, ScriptedApprover, signal, type Harness } from './harness';

const ok = (t: string): ToolCallResult => ({ content: [{ type: 'text', text: t }], isError: false });

/** Resolves once `n` callers wait on it; rejects if they never all arrive (calls ran one at a time). */
function barrier(n: number, ms = 3_000): () => Promise<void> {
  let arrived = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve, reject) => {
    release = resolve;
    setTimeout(() => reject(new Error(`only ${arrived} of ${n} calls were running at once`)), ms).unref();
  });
  return () => {
    arrived++;
    if (arrived === n) release();
    return all;
  };
}

describe('tool calls of one reply', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('read-only calls run at once, a write waits for them, and results keep the reply order', async () => {
    const meet = barrier(2);
    const log: string[] = [];
    h = await harness({
      servers: {
        fs: {
          running: true,
          tools: [
            { name: 'read', readOnly: true, handler: async (args) => { log.push(`read ${String(args['arg'])}`); await meet(); log.push(`read ${String(args['arg'])} done`); return ok(`content ${String(args['arg'])}`); } },
            { name: 'write', readOnly: false, handler: async (args) => { log.push(`write ${String(args['arg'])}`); return Promise.resolve(ok('written')); } },
          ],
        },
      },
      tools: { '*': { enable: 'on', run: 'unattended' } },
      script: [reply(toolUse('a', 'fs__read', { arg: '1' }), toolUse('b', 'fs__read', { arg: '2' }), toolUse('c', 'fs__write', { arg: '3' })), reply(text('done'))],
    });
    const result = await h.session.send('read both, then write', signal());
    assert.equal(result.reason, 'done');
    assert.deepEqual(log.slice(0, 2).sort(), ['read 1', 'read 2']);
    assert.equal(log.at(-1), 'write 3');
    const results = h.conversation.events().filter((e) => e.type === 'tool_result');
    assert.deepEqual(results.map((e) => (e.type === 'tool_result' ? [e.toolUseId, e.isError] : [])), [['a', false], ['b', false], ['c', false]]);
    assert.deepEqual(lastToolResults(h.api.requests[1]?.body).map((r) => [r.id, r.text]), [['a', 'content 1'], ['b', 'content 2'], ['c', 'written']]);
  });

  it('read-only calls that ask are approved one by one before any of them runs; a denied one does not run', async () => {
    const ran: string[] = [];
    h = await harness({
      servers: { fs: { running: true, tools: [{ name: 'read', readOnly: true, handler: async (args) => { ran.push(String(args['arg'])); return Promise.resolve(ok('content')); } }] } },
      script: [reply(toolUse('a', 'fs__read', { arg: '1' }), toolUse('b', 'fs__read', { arg: '2' })), reply(text('done'))],
      approver: new ScriptedApprover(['deny', 'allow_once']),
    });
    await h.session.send('read both', signal());
    assert.deepEqual(h.approver.asked.map((r) => r.toolUseId), ['a', 'b']);
    assert.deepEqual(ran, ['2']);
    const first = h.conversation.events().find((e) => e.type === 'tool_result' && e.toolUseId === 'a');
    assert.equal(first?.type === 'tool_result' ? first.isError : undefined, true);
  });
});
