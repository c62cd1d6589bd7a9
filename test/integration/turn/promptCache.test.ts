import assert from 'node:assert/strict';
import type { RecordedRequest, MessagesBody, WireBlock } from '../../fixtures/scriptedMessagesApi';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, ScriptedApprover, signal, toolNames, type FakeServer, type Harness, type HarnessOptions } from './harness';

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
    const s1 = bodies[1]?.messages.at(-1)?.content.find((b) => b.tool_use_id === 's1');
    assert.deepEqual(s1?.content?.map((c) => c.type), ['text', 'tool_reference'], 'the reference follows the text the model reads');
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

  it('a promoted tool turned off in settings later is neither offered nor referenced, without a 400; the cache is read up to its search result', async () => {
    h = await conversation();
    h.settings.tools = { ...discoverable, ci__deploy_staging: { enable: 'off' } };
    h.api.enqueue(reply(text('ok')));
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assertNoneRejected(h);
    const last = h.api.requests[6]?.body;
    assert.deepEqual(deferred(last), ['ci__logs']);
    assert.deepEqual(references(last), { s2: ['ci__logs'] });
    const share = readShare(h.api.requests, 6);
    assert.ok(share > 0 && share < 0.9, `tools and system still read, the rest is a miss from the old reference on (${share.toFixed(3)})`);
  });

  it('a promoted tool whose server is gone is neither offered nor referenced, without a 400', async () => {
    h = await conversation();
    const ci = h.source.tools().length;
    assert.ok(ci > 0);
    h.source.servers['ci']!.running = false;
    h.api.enqueue(reply(text('ok')));
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assertNoneRejected(h);
    assert.deepEqual(references(h.api.requests[6]?.body), {});
    assert.deepEqual(toolNames(h.api.requests[6]?.body), ['search_tools', 'describe_tools']);
  });

  it('found, unavailable gets no reference; a tool two searches found is loaded once, by the later', async () => {
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
    assert.deepEqual(references(second), { s2: ['ci__deploy_staging'] }, 'ci__deploy was turned off in the same step; s2 found deploy_staging again');
    assert.deepEqual(deferred(second), ['ci__deploy_staging']);
  });

  it('/use of a tool loads it up front for that turn only (tool_choice names a tool loaded up front), without a 400', async () => {
    h = await conversation();
    h.api.enqueue(reply(toolUse('u1', 'ci__deploy_staging', {})), reply(text('done')), reply(toolUse('u2', 'ci__deploy', {})), reply(text('done')), reply(text('plain')));
    assert.equal((await h.session.send('again', signal(), 'ci__deploy_staging')).reason, 'done');
    assert.equal((await h.session.send('the other', signal(), 'ci__deploy')).reason, 'done');
    assert.equal((await h.session.send('thanks', signal())).reason, 'done');
    assertNoneRejected(h);
    const [promotedForced, , discoverableForced, , after] = h.api.requests.slice(6).map((r) => r.body);
    assert.deepEqual(promotedForced?.tool_choice, { type: 'tool', name: 'ci__deploy_staging' });
    assert.deepEqual(deferred(promotedForced), ['ci__logs'], 'the forced tool is loaded up front that turn');
    assert.deepEqual(references(promotedForced), { s2: ['ci__logs'] });
    assert.deepEqual(discoverableForced?.tool_choice, { type: 'tool', name: 'ci__deploy' });
    assert.ok(toolNames(discoverableForced).includes('ci__deploy') && !deferred(discoverableForced).includes('ci__deploy'));
    assert.equal(JSON.stringify(after?.tools), JSON.stringify(h.api.requests[5]?.body.tools), 'after the turn, the array is as before');
  });

  it('a promoted tool whose definition changed (list_changed) is loaded with the new one; the cache is read up to its search result', async () => {
    h = await conversation();
    const ci = h.source.servers['ci']!;
    ci.tools = ci.tools.map((t) => (t.name === 'deploy_staging' ? { ...t, description: long('Deploy to staging, now with rollbacks.') } : t));
    h.api.enqueue(reply(text('ok')));
    await h.session.send('anything new?', signal());
    assertNoneRejected(h);
    const last = h.api.requests[6]?.body;
    const staging = (last?.tools ?? []).find((t) => t.name === 'ci__deploy_staging');
    assert.match(staging?.description ?? '', /rollbacks/);
    assert.equal(upFront(last), upFront(h.api.requests[5]?.body));
    const share = readShare(h.api.requests, 6);
    assert.ok(share > 0 && share < 0.9, `a miss from the reference on (${share.toFixed(3)})`);
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

  it('when every offered tool would be deferred, all are loaded up front (the API needs one), without a 400', async () => {
    h = await conversation();
    h.settings.tools = { ...discoverable, ci__status: { enable: 'off' }, search_tools: { enable: 'off' }, describe_tools: { enable: 'off' } };
    h.api.enqueue(reply(text('ok')));
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assertNoneRejected(h);
    const last = h.api.requests[6]?.body;
    assert.deepEqual(toolNames(last), ['ci__deploy_staging', 'ci__logs']);
    assert.deepEqual(deferred(last), []);
    assert.deepEqual(references(last), {});
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
    const answer = (i: number, id: string) => JSON.parse(bodies[i]?.messages.at(-1)?.content.find((b) => b.tool_use_id === id)?.content?.[0]?.text ?? '{}') as { results: { name: string }[]; not_loaded?: { name: string }[] };
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
