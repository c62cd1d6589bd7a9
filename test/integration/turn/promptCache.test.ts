import assert from 'node:assert/strict';
import type { RecordedRequest, MessagesBody, WireBlock } from '../../fixtures/scriptedMessagesApi';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, lastToolResults, offeredIn, ScriptedApprover, signal, toolNames, type FakeServer, type Harness, type HarnessOptions } from './harness';

// Descriptions long enough that the prompt passes the 1,024-token minimum a prefix needs to be cached.
const long = (what: string): string => `${what} ${'It takes the usual options and reports what it did in detail. '.repeat(60)}`;
const ciTools = () => [
  { name: 'deploy', description: long('Deploy a build.') },
  { name: 'deploy_staging', description: long('Deploy to staging.') },
  { name: 'status', description: long('Pipeline status.') },
  { name: 'logs', description: long('Build logs.') },
];
const servers = (): Record<string, FakeServer> => ({ ci: { running: true, tools: ciTools() } });
const discoverable = { '*': { enable: 'discoverable', run: 'unattended' }, ci__status: { enable: 'on' } };

type Tool = NonNullable<MessagesBody['tools']>[number] & { readonly defer_loading?: boolean };

const upFront = (body: MessagesBody | undefined): string => JSON.stringify(((body?.tools ?? []) as readonly Tool[]).filter((t) => t.defer_loading !== true));
const deferred = (body: MessagesBody | undefined): string[] => ((body?.tools ?? []) as readonly Tool[]).filter((t) => t.defer_loading === true).map((t) => t.name);
const system = (body: MessagesBody | undefined): string => JSON.stringify(body?.system);

/** The tool names each tool_result of a request loads, by tool_use id. */
function references(body: MessagesBody | undefined): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const m of body?.messages ?? []) {
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const names = (b.content ?? []).filter((c: WireBlock) => c.type === 'tool_reference').map((c) => String(c['tool_name']));
      if (names.length > 0) found[b.tool_use_id ?? ''] = names;
    }
  }
  return found;
}

/** Share of request i-1's whole prompt that request i read from the cache. */
function readShare(requests: readonly RecordedRequest[], i: number): number {
  const before = requests[i - 1]?.cache;
  const now = requests[i]?.cache;
  assert.ok(before && now, `requests ${i - 1} and ${i} were priced`);
  return now.cache_read_input_tokens / before.prompt_tokens;
}

function assertNoneRejected(h: Harness): void {
  assert.deepEqual(h.api.requests.map((r) => r.rejected).filter((r) => r !== undefined), []);
}

/** Two messages, each: search, call the found tool, answer. Requests 1 and 4 follow a promotion. */
const twoPromotions = [
  reply(toolUse('s1', 'search_tools', { query: 'staging' })), reply(toolUse('c1', 'ci__deploy_staging', {})), reply(text('Deployed.')),
  reply(toolUse('s2', 'search_tools', { query: 'logs' })), reply(toolUse('c2', 'ci__logs', {})), reply(text('Here are the logs.')),
];

async function conversation(options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await harness({ servers: servers(), tools: discoverable, script: twoPromotions, ...options });
  assert.equal((await h.session.send('deploy to staging', signal())).reason, 'done');
  assert.equal((await h.session.send('show me the logs', signal())).reason, 'done');
  return h;
}

describe('promotion keeps the prompt cache (deferred tools and tool references)', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('tools up front and system stay byte-identical across promotions; each promoted tool is deferred and loaded where it was found', async () => {
    h = await conversation();
    assertNoneRejected(h);
    const bodies = h.api.requests.map((r) => r.body);
    assert.equal(bodies.length, 6);
    for (const body of bodies) {
      assert.equal(upFront(body), upFront(bodies[0]), 'the tools loaded up front never change');
      assert.equal(system(body), system(bodies[0]), 'the system prompt never changes');
    }
    assert.deepEqual(toolNames(bodies[0]), ['search_tools', 'describe_tools', 'ci__status']);
    assert.deepEqual(deferred(bodies[1]), ['ci__deploy_staging']);
    assert.deepEqual(deferred(bodies[5]), ['ci__deploy_staging', 'ci__logs']);
    assert.deepEqual(references(bodies[5]), { s1: ['ci__deploy_staging'], s2: ['ci__logs'] });
    const s1 = bodies[1]?.messages.at(-1)?.content;
    assert.deepEqual(s1?.map((b) => b.type), ['tool_result', 'text'], 'the search text stands beside its result');
    assert.deepEqual(s1?.[0]?.content?.map((c) => c.type), ['tool_reference'], 'a result that loads a tool holds only its reference');
    assert.equal(h.api.requests[2]?.body.messages.at(-2)?.content.find((b) => b.type === 'tool_use')?.name, 'ci__deploy_staging');
  });

  it('the request after each promotion reads at least 90% of the previous prompt from cache; with toolsArray it reads none', async () => {
    h = await conversation();
    const shares = [1, 4].map((i) => readShare(h!.api.requests, i));
    for (const share of shares) assert.ok(share >= 0.9, `read share ${share.toFixed(3)} after a promotion`);
    await h.close();
    h = await conversation({ promotionRendering: 'toolsArray' });
    assertNoneRejected(h);
    assert.deepEqual(deferred(h.api.requests[5]?.body), [], 'the fallback defers nothing');
    assert.deepEqual(references(h.api.requests[5]?.body), {});
    assert.deepEqual([1, 4].map((i) => readShare(h!.api.requests, i)), [0, 0], 'a changed tools array rewrites the whole cache');
  });

  it('a reopened conversation renders the same bytes and keeps reading the cache', async () => {
    h = await conversation();
    h.api.enqueue(reply(text('Still here.')));
    const reopened = await h.reopen();
    assert.equal((await reopened.send('thanks', signal())).reason, 'done');
    const [before, after] = [h.api.requests[5]?.body, h.api.requests[6]?.body];
    assert.equal(JSON.stringify(after?.tools), JSON.stringify(before?.tools));
    assert.equal(system(after), system(before));
    assert.deepEqual(references(after), references(before));
    assert.ok(readShare(h.api.requests, 6) >= 0.9);
  });

  it('a promoted tool turned off in settings later is withdrawn by an appended tool_removal: no longer offered, nothing before it changed, the cache read', async () => {
    h = await conversation();
    h.settings.tools = { ...discoverable, ci__deploy_staging: { enable: 'off' } };
    h.api.enqueue(reply(text('ok')));
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assertNoneRejected(h);
    const [before, last] = [h.api.requests[5]?.body, h.api.requests[6]?.body];
    assert.equal(JSON.stringify(last?.tools), JSON.stringify(before?.tools), 'the tools array as before');
    assert.deepEqual(references(last), references(before), 'the reference stays where it was sent');
    assert.deepEqual(offeredIn(last), ['ci__logs', 'ci__status', 'describe_tools', 'search_tools']);
    assert.match(appendedSystemText(last), /No longer available \(turned off in the editor\): ci__deploy_staging/);
    assert.ok(readShare(h.api.requests, 6) >= 0.9, `read share ${readShare(h.api.requests, 6).toFixed(3)}`);
  });

  it('a promoted tool whose server is gone is neither offered nor referenced, without a 400', async () => {
    h = await conversation();
    const ci = h.source.tools().length;
    assert.ok(ci > 0);
    h.source.servers['ci']!.running = false;
    h.api.enqueue(reply(text('ok')));
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assertNoneRejected(h);
    const [before, last] = [h.api.requests[5]?.body, h.api.requests[6]?.body];
    assert.deepEqual(references(last), references(before));
    assert.deepEqual(offeredIn(last), ['describe_tools', 'search_tools'], 'withdrawn, with its server named as the reason');
    assert.match(appendedSystemText(last), /their MCP server stopped[^\n]*ci__deploy_staging, ci__logs, ci__status/);
    assert.ok(readShare(h.api.requests, 6) >= 0.9);
  });

  it('found, unavailable gets no reference; a tool two searches found is loaded once, by the first', async () => {
    let current: Harness | undefined;
    const approver = new ScriptedApprover(['allow_once'], async () => {
      await current?.session.toggle({ kind: 'named', name: 'ci__deploy' }, 'disable');
    });
    h = current = await harness({
      servers: servers(),
      tools: { '*': { enable: 'discoverable' }, ci__status: { enable: 'on', run: 'ask' } },
      approver,
      script: [
        reply(toolUse('c0', 'ci__status', {}), toolUse('s1', 'search_tools', { query: 'deploy' }), toolUse('s2', 'search_tools', { query: 'staging' })),
        reply(text('ok')),
      ],
    });
    await h.session.send('deploy', signal());
    assertNoneRejected(h);
    const second = h.api.requests[1]?.body;
    assert.deepEqual(references(second), { s1: ['ci__deploy_staging'] }, 'ci__deploy was turned off in the same step; s2 found deploy_staging again, and a reference once sent never moves');
    assert.deepEqual(deferred(second), ['ci__deploy_staging']);
  });

  it('/use offers the tool for its turn by an appended change, asks for it in words (no forced tool_choice on Sonnet 5.5), and withdraws it after', async () => {
    h = await conversation();
    h.api.enqueue(reply(toolUse('u1', 'ci__deploy', {})), reply(text('done')), reply(text('plain')));
    assert.equal((await h.session.send('the other', signal(), 'ci__deploy')).reason, 'done');
    assert.equal((await h.session.send('thanks', signal())).reason, 'done');
    assertNoneRejected(h);
    const [forced, answered, after] = h.api.requests.slice(6).map((r) => r.body);
    assert.equal(forced?.tool_choice, undefined);
    assert.ok(offeredIn(forced).includes('ci__deploy') && deferred(forced).includes('ci__deploy'), 'added as a deferred tool, loaded by tool_addition');
    assert.match(appendedSystemText(forced), /use the tool ci__deploy for this message/);
    assert.ok(offeredIn(answered).includes('ci__deploy'), 'still offered within its turn');
    assert.ok(!offeredIn(after).includes('ci__deploy'), 'withdrawn at the next message');
    assert.deepEqual(h.source.calls.map((c) => c.name).slice(-1), ['ci__deploy']);
    for (const i of [6, 7, 8]) assert.ok(readShare(h.api.requests, i) >= 0.9, `read share ${readShare(h.api.requests, i).toFixed(3)} at request ${i}`);
  });

  it('a promoted tool whose definition changed (list_changed) keeps the definition first sent: the prefix stays and the cache is read', async () => {
    h = await conversation();
    const ci = h.source.servers['ci']!;
    ci.tools = ci.tools.map((t) => (t.name === 'deploy_staging' ? { ...t, description: long('Deploy to staging, now with rollbacks.') } : t));
    h.api.enqueue(reply(text('ok')));
    await h.session.send('anything new?', signal());
    assertNoneRejected(h);
    const last = h.api.requests[6]?.body;
    assert.equal(JSON.stringify(last?.tools), JSON.stringify(h.api.requests[5]?.body.tools));
    assert.ok(readShare(h.api.requests, 6) >= 0.9);
  });

  it('a server that lists its tools in another order changes nothing on the wire', async () => {
    h = await harness({ servers: servers(), tools: discoverable, script: [...twoPromotions, reply(text('same'))] });
    await h.session.send('deploy to staging', signal());
    await h.session.send('show me the logs', signal());
    const ci = h.source.servers['ci']!;
    ci.tools = [...ci.tools].reverse();
    await h.session.send('again', signal());
    assert.equal(JSON.stringify(h.api.requests[6]?.body.tools), JSON.stringify(h.api.requests[5]?.body.tools));
    assert.ok(readShare(h.api.requests, 6) >= 0.9);
  });

  it('every tool loaded up front turned off: all withdrawn by changes, the promoted ones still offered, the array as first sent, without a 400', async () => {
    h = await conversation();
    h.settings.tools = { ...discoverable, ci__status: { enable: 'off' }, search_tools: { enable: 'off' }, describe_tools: { enable: 'off' } };
    h.api.enqueue(reply(text('ok')));
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assertNoneRejected(h);
    const last = h.api.requests[6]?.body;
    assert.equal(JSON.stringify(last?.tools), JSON.stringify(h.api.requests[5]?.body.tools));
    assert.deepEqual(offeredIn(last), ['ci__deploy_staging', 'ci__logs']);
  });

  it('a restart keeps the reference of a search it does not withdraw', async () => {
    h = await harness({ servers: servers(), tools: discoverable, script: [reply(toolUse('s1', 'search_tools', { query: 'logs' }), text('looking')), reply(text('found')), reply(text('again'))] });
    await h.session.send('logs?', signal());
    await h.session.restart(signal());
    assertNoneRejected(h);
    assert.deepEqual(references(h.api.requests[2]?.body), { s1: ['ci__logs'] });
  });

  it('a search over the load budget loads the best match and lists the rest; a search by exact name loads one of them, still reading the cache', async () => {
    // Each ci tool costs about 1,100 tokens: a 1,500-token budget loads one per search.
    h = await harness({
      servers: servers(), tools: discoverable, searchLoadBudget: 1500,
      script: [
        reply(toolUse('s1', 'search_tools', { query: 'deploy' })),
        reply(toolUse('s2', 'search_tools', { query: 'ci__deploy_staging', limit: 1 })),
        reply(toolUse('c1', 'ci__deploy_staging', {})),
        reply(text('Deployed to staging.')),
      ],
    });
    assert.equal((await h.session.send('deploy to staging', signal())).reason, 'done');
    assertNoneRejected(h);
    const bodies = h.api.requests.map((r) => r.body);
    const answer = (i: number, id: string) => JSON.parse(lastToolResults(bodies[i]).find((r) => r.id === id)?.text ?? '{}') as { results: { name: string }[]; not_loaded?: { name: string }[] };
    assert.deepEqual(answer(1, 's1').results.map((r) => r.name), ['ci__deploy']);
    assert.deepEqual(answer(1, 's1').not_loaded?.map((r) => r.name), ['ci__deploy_staging']);
    assert.deepEqual(references(bodies[1]), { s1: ['ci__deploy'] }, 'a listed tool is not loaded');
    assert.deepEqual(answer(2, 's2').results.map((r) => r.name), ['ci__deploy_staging']);
    assert.deepEqual(references(bodies[2]), { s1: ['ci__deploy'], s2: ['ci__deploy_staging'] });
    assert.deepEqual(h.source.calls.map((c) => c.name), ['ci__deploy_staging']);
    for (const body of bodies) {
      assert.equal(upFront(body), upFront(bodies[0]));
      assert.equal(system(body), system(bodies[0]));
    }
    for (const i of [1, 2]) assert.ok(readShare(h.api.requests, i) >= 0.9, `read share after request ${i - 1}`);
  });
});
