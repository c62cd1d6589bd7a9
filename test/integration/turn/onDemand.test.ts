import assert from 'node:assert/strict';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, signal, toolNames, type Harness } from './harness';

describe('servers started on demand: /use NAME (forced tool) and /set', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('a forced off (not locked) MCP tool starts its server, is offered and chosen, and runs; no delta', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] }, db: { running: false, tools: [{ name: 'query' }] } },
      tools: { 'db__*': { enable: 'off' } },
      script: [reply(toolUse('q1', 'db__query', { arg: 'select 1' })), reply(text('1 row'))],
    });
    const result = await h.session.send('run the query', signal(), 'db__query');
    assert.equal(result.reason, 'done');
    assert.deepEqual(h.source.started, ['db']);
    const first = h.api.requests[0]?.body;
    assert.deepEqual(toolNames(first), ['ci__status', 'db__query']);
    assert.deepEqual(first?.tool_choice, { type: 'tool', name: 'db__query' });
    assert.deepEqual(h.api.requests[1]?.body.tool_choice, { type: 'auto' });
    assert.deepEqual(h.source.calls.map((c) => c.name), ['db__query']);
    assert.equal(h.conversation.events().filter((e) => e.type === 'config_delta' && e.source !== 'settings').length, 0);
    const message = h.conversation.events().find((e) => e.type === 'user_message');
    assert.equal(message?.type === 'user_message' ? message.forced : undefined, 'db__query');
  });

  it('a forced locked-off tool is refused with a clear error and nothing is sent', async () => {
    h = await harness({
      servers: { db: { running: false, tools: [{ name: 'drop' }] } },
      tools: { db__drop: { enable: { availability: 'off', allow_toggle: 'never' } } },
    });
    const result = await h.session.send('drop it', signal(), 'db__drop');
    assert.equal(result.reason, 'refused');
    assert.match(result.message ?? '', /db__drop is locked off/);
    assert.equal(h.api.requests.length, 0);
    assert.deepEqual(h.source.started, []);
    assert.deepEqual(h.conversation.events(), []);
  });

  it('/set turning on a tool of a server left stopped (every tool off) starts that server; the tool is offered next', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] }, db: { running: false, tools: [{ name: 'query' }] } },
      tools: { 'db__*': { enable: 'off' } },
      script: [reply(text('ok'))],
    });
    const set = await h.session.assign('tools.db__query.enable=on');
    assert.equal(set.refused, undefined);
    assert.deepEqual(h.source.started, ['db']);
    await h.session.send('query it', signal());
    assert.deepEqual(toolNames(h.api.requests[0]?.body), ['ci__status', 'db__query']);
  });

  it('/set turning a tool off, or naming an unknown server, starts nothing and still records the change', async () => {
    h = await harness({
      servers: { db: { running: false, tools: [{ name: 'query' }] } },
      tools: { 'db__*': { enable: 'off' } },
    });
    await h.session.assign('tools.db__query.enable=off');
    const unknown = await h.session.assign('tools.nowhere__thing.enable=on');
    assert.equal(unknown.refused, undefined);
    assert.deepEqual(h.source.started, []);
    assert.equal(h.conversation.events().filter((e) => e.type === 'config_delta' && e.source === 'user').length, 2);
  });
});
