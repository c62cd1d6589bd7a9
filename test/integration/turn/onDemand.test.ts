import assert from 'node:assert/strict';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, offeredIn, signal, toolNames, type Harness } from './harness';

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
    assert.equal(first?.tool_choice, undefined, 'claude-sonnet-5-5 refuses forced tool use: /use asks in an appended system message instead');
    assert.deepEqual(offeredIn(first), ['ci__status', 'db__query']);
    assert.match(appendedSystemText(first), /use the tool db__query for this message \(\/use db__query\)/);
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

  it('/set turning on a tool of a server left off starts that server; the tool is offered in the next request', async () => {
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] }, db: { running: false, off: true, tools: [{ name: 'query' }] } },
      tools: { 'db__*': { enable: 'off' } },
      script: [reply(text('ok'))],
    });
    const set = await h.session.assign('tools.db__query.enable=on');
    assert.equal(set.refused, undefined);
    await h.session.send('query it', signal());
    assert.deepEqual(h.source.started, ['db']);
    assert.deepEqual(toolNames(h.api.requests[0]?.body), ['ci__status', 'db__query']);
  });

  it('/set tools.*.enable=discoverable starts every server left off by "*": "off"', async () => {
    h = await harness({
      servers: { db: { running: false, off: true, tools: [{ name: 'query' }] }, ci: { running: false, off: true, tools: [{ name: 'status' }] } },
      tools: { '*': { enable: 'off' } },
      script: [reply(text('ok'))],
    });
    await h.session.assign('tools.*.enable=discoverable');
    await h.session.send('what can you do', signal());
    assert.deepEqual([...h.source.started].sort(), ['ci', 'db']);
    assert.ok(toolNames(h.api.requests[0]?.body).includes('search_tools'));
  });

  it('a reopened conversation whose /set permits a tool starts the server at the next turn', async () => {
    h = await harness({
      servers: { db: { running: true, tools: [{ name: 'query' }] } },
      tools: { 'db__*': { enable: 'off' } },
      script: [reply(text('ok'))],
    });
    await h.session.assign('tools.db__query.enable=on');
    const db = { running: false, off: true, tools: [{ name: 'query' }] };
    const reopened = await h.reopen();
    Object.assign(h.source, { servers: { db } });
    await reopened.send('query it', signal());
    assert.equal(db.running, true);
    assert.deepEqual(toolNames(h.api.requests[0]?.body), ['db__query']);
  });

  it('/set turning a tool off, or naming an unknown server, starts nothing and still records the change', async () => {
    h = await harness({
      servers: { db: { running: false, off: true, tools: [{ name: 'query' }] } },
      tools: { 'db__*': { enable: 'off' } },
      script: [reply(text('ok'))],
    });
    await h.session.assign('tools.db__query.enable=off');
    const unknown = await h.session.assign('tools.nowhere__thing.enable=on');
    assert.equal(unknown.refused, undefined);
    await h.session.send('hello', signal());
    assert.deepEqual(h.source.started, []);
    assert.equal(h.conversation.events().filter((e) => e.type === 'config_delta' && e.source === 'user').length, 2);
  });

  it('/use finds a server left off by its real name even when tool names shorten it', async () => {
    h = await harness({
      servers: { 'My Server': { running: false, off: true, tools: [{ name: 'query' }] } },
      tools: { 'My Server__*': { enable: 'off' } },
    });
    // MemoryToolSource names tools plainly; what matters is that the lookup goes through offServers.
    await h.session.send('go', signal(), 'My Server__query');
    assert.deepEqual(h.source.started, ['My Server']);
  });

  it('a turn sent right after /set waits for the server that /set began starting', async () => {
    let ready: () => void = () => undefined;
    const db = { running: false, off: true, startsAfter: new Promise<void>((r) => (ready = r)), tools: [{ name: 'query' }] };
    h = await harness({ servers: { db }, tools: { 'db__*': { enable: 'off' } }, script: [reply(text('ok'))] });
    await h.session.assign('tools.db__query.enable=on');
    setTimeout(ready, 50);
    await h.session.send('query it', signal());
    assert.deepEqual(toolNames(h.api.requests[0]?.body), ['db__query']);
  });

  it('Stop while the turn waits for a server start ends the turn at once', async () => {
    const db = { running: false, off: true, startsAfter: new Promise<void>(() => undefined), tools: [{ name: 'query' }] };
    h = await harness({ servers: { db }, tools: { 'db__*': { enable: 'off' } } });
    await h.session.assign('tools.db__query.enable=on');
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const result = await h.session.send('query it', stop.signal);
    assert.equal(result.reason, 'cancelled');
    assert.equal(h.api.requests.length, 0);
  });

  it('/set while a tool runs starts the server at once, not at the next message', async () => {
    const db = { running: false, off: true, tools: [{ name: 'query' }] };
    const late: { session?: Harness['session'] } = {};
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status', handler: async () => { await late.session?.assign('tools.db__query.enable=on'); return { content: [{ type: 'text', text: 'green' }], isError: false }; } }] }, db },
      tools: { 'db__*': { enable: 'off' }, ci__status: { enable: 'on', run: 'unattended' } },
      script: [reply(toolUse('s', 'ci__status')), reply(text('ok'))],
    });
    late.session = h.session;
    await h.session.send('status', signal());
    assert.deepEqual(h.source.started, ['db']);
    assert.ok(toolNames(h.api.requests[1]?.body).includes('db__query'), 'offered in the same turn once running');
  });
});

