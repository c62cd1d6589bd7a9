import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { transcriptOf } from '../../../src/core/stream/transcript';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, lastToolResults, ScriptedApprover, signal, toolNames, type Harness } from './harness';

/** Every tool_use in the stream has exactly one tool_result, and the turn ended. */
function assertConsistent(events: readonly StreamEvent[]): void {
  const uses = events.flatMap((e) => (e.type === 'assistant_message' ? e.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : []));
  const results = events.flatMap((e) => (e.type === 'tool_result' ? [e.toolUseId] : []));
  assert.deepEqual([...results].sort(), [...uses].sort());
  assert.equal(events.at(-1)?.type, 'turn_end');
}

describe('turn lifecycle', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('cancel mid-stream stops the stream and leaves a consistent stream', async () => {
    const controller = new AbortController();
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] } },
      script: [{ kind: 'reply', content: [text('Working on it, this takes a while')], holdAfter: 3 }, reply(text('next'))],
      observer: { onText: () => controller.abort() },
    });
    const result = await h.session.send('go', controller.signal);
    assert.equal(result.reason, 'cancelled');
    assertConsistent(h.conversation.events());
    const end = h.conversation.events().at(-1);
    assert.equal(end?.type === 'turn_end' ? end.reason : '', 'cancelled');
    const partial = h.conversation.events().find((e) => e.type === 'assistant_message');
    assert.deepEqual(partial?.type === 'assistant_message' ? partial.content : [], [{ type: 'text', text: 'Working on it, th' }]);
    await h.session.send('continue', signal());
    assert.equal(h.api.requests.length, 2);
  });

  it('cancel while a tool runs: the running call is stopped while running, the remaining calls get "cancelled by the user" results', async () => {
    const controller = new AbortController();
    h = await harness({
      servers: {
        ci: {
          running: true,
          tools: [{
            name: 'slow',
            handler: (_args, s) => new Promise((_resolve, reject) => {
              controller.abort();
              s.addEventListener('abort', () => reject(new Error('aborted')));
            }),
          }, { name: 'status' }],
        },
      },
      tools: { '*': { run: 'unattended' } },
      script: [reply(toolUse('a', 'ci__slow', {}), toolUse('b', 'ci__status', {}))],
    });
    const result = await h.session.send('go', controller.signal);
    assert.equal(result.reason, 'cancelled');
    assertConsistent(h.conversation.events());
    const results = h.conversation.events().filter((e) => e.type === 'tool_result');
    assert.deepEqual(results.map((e) => (e.type === 'tool_result' ? [e.toolUseId, e.isError, e.content[0]] : [])), [
      ['a', true, { type: 'text', text: 'The call was stopped by the user while it was running; it may have had effects (ci__slow had started, and was stopped before it returned a result). Check the current state before running it again, and do not run it again unless the user asks.' }],
      ['b', true, { type: 'text', text: 'The tool call was cancelled by the user.' }],
    ]);
    assert.deepEqual(results.map((e) => (e.type === 'tool_result' ? [e.stopped, e.notRun] : [])), [[true, undefined], [undefined, 'cancelled']]);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['ci__slow']);
    assert.equal(transcriptOf(h.conversation.events()).at(-1)?.role, 'user');
  });

  it('max cycles ends a runaway turn with a message; the last calls are answered but not run', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] } },
      tools: { '*': { run: 'unattended' } },
      maxCyclesPerTurn: 2,
      script: [reply(toolUse('a', 'ci__status', {})), reply(toolUse('b', 'ci__status', {}))],
    });
    const result = await h.session.send('loop', signal());
    assert.equal(result.reason, 'max_cycles');
    assert.match(result.message ?? '', /Stopped after 2 model responses/);
    assert.equal(h.source.calls.length, 1);
    assertConsistent(h.conversation.events());
  });

  it('a denied approval gives the model a result saying the user declined; the tool does not run', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'deploy' }] } },
      approver: new ScriptedApprover(['deny']),
      script: [reply(toolUse('a', 'ci__deploy', {})), reply(text('ok, not deploying'))],
    });
    await h.session.send('deploy', signal());
    assert.equal(h.approver.asked.length, 1);
    assert.deepEqual(h.source.calls, []);
    const [declined] = lastToolResults(h.api.requests[1]?.body);
    assert.equal(declined?.isError, true);
    assert.match(declined?.text ?? '', /user declined to run ci__deploy/);
  });

  it('"always allow" is reported for the host to write to settings and not asked again this turn', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'deploy' }] } },
      approver: new ScriptedApprover(['always_allow']),
      script: [reply(toolUse('a', 'ci__deploy', {})), reply(toolUse('b', 'ci__deploy', {})), reply(text('done'))],
    });
    await h.session.send('deploy twice', signal());
    assert.equal(h.approver.asked.length, 1);
    assert.deepEqual(h.live.alwaysAllowed, ['ci__deploy']);
    assert.equal(h.source.calls.length, 2);
  });

  it('builtins run unattended; MCP tools ask by default', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'deploy' }, { name: 'status' }] } },
      tools: { ci__deploy: { enable: 'discoverable' } },
      script: [reply(toolUse('s', 'search_tools', { query: 'deploy' }), toolUse('a', 'ci__status', {})), reply(text('ok'))],
    });
    await h.session.send('hi', signal());
    assert.deepEqual(h.approver.asked.map((r) => r.name), ['ci__status']);
  });

  it('a call to an off tool, an unknown tool or a tool of a stopped server never runs, and says why', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'deploy' }, { name: 'status' }] }, db: { running: false, tools: [{ name: 'query' }] } },
      tools: { ci__deploy: { enable: 'off' }, '*': { run: 'unattended' } },
      script: [reply(toolUse('a', 'ci__deploy', {}), toolUse('b', 'nope', {}), toolUse('c', 'db__query', {})), reply(text('ok'))],
    });
    await h.session.send('try', signal());
    assert.deepEqual(h.source.calls, []);
    assert.deepEqual(toolNames(h.api.requests[0]?.body), ['ci__status']);
    const results = lastToolResults(h.api.requests[1]?.body);
    assert.match(results[0]?.text ?? '', /ci__deploy was not run: it is turned off/);
    assert.match(results[1]?.text ?? '', /nope was not run: there is no tool/);
    assert.match(results[2]?.text ?? '', /db__query was not run: its MCP server "db" is not running/);
    assert.ok(results.every((r) => r.isError));
  });

  it('requests carry the system prompt and the latest message as cache breakpoints, and usage is recorded', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] } },
      script: [{ kind: 'reply', content: [text('hi')], usage: { input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 40, cache_creation_input_tokens: 10 } }],
    });
    await h.session.send('hello', signal());
    const body = h.api.requests[0]?.body;
    assert.deepEqual(body?.system?.[0]?.cache_control, { type: 'ephemeral', ttl: '1h' }, 'quiver.cache.ttl auto: an hour');
    assert.deepEqual(body?.messages.at(-1)?.content.at(-1)?.cache_control, { type: 'ephemeral' });
    assert.equal(body?.stream, true);
    const usage = h.conversation.events().find((e) => e.type === 'usage');
    assert.deepEqual(usage && usage.type === 'usage' ? [usage.inputTokens, usage.outputTokens, usage.cacheReadTokens, usage.cacheWriteTokens] : [], [50, 7, 40, 10]);
    assert.equal(h.live.text, 'hi');
  });
});
