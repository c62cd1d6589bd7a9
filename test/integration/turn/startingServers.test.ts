import assert from 'node:assert/strict';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, lastToolResults, offeredIn, signal, toolNames, type FakeServer, type Harness } from './harness';

const discoverable = { '*': { enable: 'discoverable', run: 'unattended' } };

/** Fresh each time: a test marks its servers as coming up. */
const ciAndDb = () => ({ ci: { running: true, tools: [{ name: 'status' }] }, db: { running: true, tools: [{ name: 'query' }] } });

/** A server that is coming up until `up()` is called, as at window open with many servers. */
function comingUp(server: FakeServer): { up: () => void } {
  let up = (): void => undefined;
  server.running = false;
  server.starting = true;
  server.startsAfter = new Promise<void>((r) => (up = r)).then(() => {
    server.running = true;
    server.starting = false;
  });
  return { up: () => up() };
}

describe('a message sent while servers start', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('is answered at once with what is up when it needs nothing of a server still starting', async () => {
    const waits: (readonly string[])[] = [];
    h = await harness({ servers: ciAndDb(), tools: discoverable, observer: { onWaitingForServers: (s) => waits.push(s) }, script: [reply(text('hi'))] });
    comingUp(h.source.servers['db']!);
    const result = await h.session.send('hello', signal());
    assert.equal(result.reason, 'done');
    assert.deepEqual(waits, []);
    assert.equal(h.api.requests.length, 1);
  });

  it('waits for the server of a tool this conversation promoted, says so, then offers the tool', async () => {
    const waits: (readonly string[])[] = [];
    h = await harness({
      servers: ciAndDb(),
      tools: discoverable,
      observer: { onWaitingForServers: (s) => waits.push(s) },
      script: [reply(toolUse('s1', 'search_tools', { query: 'query' })), reply(text('found it')), reply(toolUse('q1', 'db__query', {})), reply(text('1 row'))],
    });
    await h.session.send('find the query tool', signal());
    const db = comingUp(h.source.servers['db']!);
    const sent = h.session.send('run it', signal());
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(h.api.requests.length, 2, 'no request while the promoted tool\'s server starts');
    assert.deepEqual(waits, [['db']]);
    db.up();
    assert.equal((await sent).reason, 'done');
    assert.ok(toolNames(h.api.requests[2]?.body).includes('db__query'));
    assert.deepEqual(h.source.calls.map((c) => c.name), ['db__query']);
  });

  it('a search while a server starts names it as not searched yet, and once it is up the same search finds and loads its tool', async () => {
    h = await harness({
      servers: ciAndDb(),
      tools: discoverable,
      script: [reply(toolUse('s1', 'search_tools', { query: 'query' })), reply(text('db is starting')), reply(toolUse('s2', 'search_tools', { query: 'query' })), reply(text('found it'))],
    });
    const db = comingUp(h.source.servers['db']!);
    assert.equal((await h.session.send('find the query tool', signal())).reason, 'done');
    const [first] = lastToolResults(h.api.requests[1]?.body);
    const answer = JSON.parse(first?.text ?? '{}') as { results: unknown[]; servers_starting?: string[]; note: string };
    assert.deepEqual(answer.results, []);
    assert.deepEqual(answer.servers_starting, ['db']);
    assert.match(answer.note, /^No tool you can load now matched\. Under "servers_starting": MCP server "db", still starting; its tools are not listed yet, so they were not searched\. If the task may need it, search again in a few seconds\.$/);
    const recorded = h.conversation.events().find((e) => e.type === 'tool_result' && e.toolUseId === 's1');
    assert.deepEqual(recorded?.type === 'tool_result' ? recorded.serversStarting : undefined, ['db'], 'the stream records it, for the card after a reload');
    db.up();
    await h.source.servers['db']!.startsAfter;
    assert.equal((await h.session.send('search again', signal())).reason, 'done');
    const [second] = lastToolResults(h.api.requests[3]?.body);
    assert.equal((JSON.parse(second?.text ?? '{}') as { servers_starting?: string[] }).servers_starting, undefined);
    assert.deepEqual(second?.references, ['db__query']);
  });

  it('Stop while it waits ends the turn at once, the message kept', async () => {
    h = await harness({
      servers: ciAndDb(),
      tools: discoverable,
      script: [reply(toolUse('s1', 'search_tools', { query: 'query' })), reply(text('found it'))],
    });
    await h.session.send('find the query tool', signal());
    comingUp(h.source.servers['db']!);
    const stop = new AbortController();
    const sent = h.session.send('run it', stop.signal);
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    assert.equal((await sent).reason, 'cancelled');
    assert.equal(h.api.requests.length, 2);
    assert.ok(h.conversation.events().some((e) => e.type === 'user_message' && e.text === 'run it'));
  });

  it('/use of a tool of a server still starting waits for it, then forces it', async () => {
    const waits: (readonly string[])[] = [];
    h = await harness({
      servers: ciAndDb(),
      tools: discoverable,
      observer: { onWaitingForServers: (s) => waits.push(s) },
      script: [reply(toolUse('q1', 'db__query', {})), reply(text('1 row'))],
    });
    const db = comingUp(h.source.servers['db']!);
    setTimeout(() => db.up(), 50);
    assert.equal((await h.session.send('run it', signal(), 'db__query')).reason, 'done');
    assert.deepEqual(waits, [['db']]);
    assert.ok(offeredIn(h.api.requests[0]?.body).includes('db__query'));
    assert.match(appendedSystemText(h.api.requests[0]?.body), /\/use db__query/);
  });

  it('/use of a tool of an idle server (listed from its cache) starts it, says so, then forces it; a plain message starts nothing', async () => {
    const waits: (readonly string[])[] = [];
    h = await harness({
      servers: { ci: { running: true, tools: [{ name: 'status' }] }, db: { running: true, idle: true, tools: [{ name: 'query' }] } },
      tools: discoverable,
      observer: { onWaitingForServers: (s) => waits.push(s) },
      script: [reply(text('hi')), reply(toolUse('q1', 'db__query', {})), reply(text('1 row'))],
    });
    assert.equal((await h.session.send('hello', signal())).reason, 'done');
    assert.deepEqual(h.source.started, []);
    assert.equal((await h.session.send('run it', signal(), 'db__query')).reason, 'done');
    assert.deepEqual(waits, [['db']]);
    assert.deepEqual(h.source.started, ['db']);
    assert.ok(offeredIn(h.api.requests[1]?.body).includes('db__query'));
    assert.match(appendedSystemText(h.api.requests[1]?.body), /\/use db__query/);
  });
});
