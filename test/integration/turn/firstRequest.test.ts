import assert from 'node:assert/strict';
import { reply, text, toolUse, type MessagesBody, type RecordedRequest, type WireBlock } from '../../fixtures/scriptedMessagesApi';
import { harness, signal, toolNames, type FakeServer, type Harness } from './harness';

/**
 * A conversation whose first request offers no tool up front: the API refuses a `tools` array in
 * which every tool is deferred ("At least one tool must have defer_loading=false"), and the first
 * request's `tools` and `system` stay as sent for the whole conversation. So the first request puts
 * the tool it offers up front, and one that offers nothing sends no `tools` at all; later tools come
 * in by inline definitions where the model takes them (issue 29, item 6).
 */
describe('the first request of a conversation: never every tool deferred', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  const servers = (): Record<string, FakeServer> => ({ ci: { running: true, tools: [{ name: 'status' }, { name: 'deploy' }] }, db: { running: true, tools: [{ name: 'query' }] } });
  const allOff = { '*': { enable: 'off' } };

  const rejected = (requests: readonly RecordedRequest[]): string[] => requests.map((r) => r.rejected).filter((r): r is string => r !== undefined);
  const deferredOnly = (body: MessagesBody): boolean => (body.tools ?? []).length > 0 && (body.tools ?? []).every((t) => t.defer_loading === true);
  const upFront = (body: MessagesBody | undefined): string => JSON.stringify((body?.tools ?? []).filter((t) => t.defer_loading !== true));
  const withoutCache = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'cache_control' ? undefined : v)));
  /** The blocks of every appended system message, in order. */
  const systemBlocks = (body: MessagesBody | undefined) => (body?.messages ?? []).filter((m) => m.role === 'system').flatMap((m) => m.content);
  type ChangedTool = { readonly type?: string; readonly name?: string; readonly definition?: { readonly name?: string } };
  /** The `tool` of a tool_addition or tool_removal block: a reference (`name`) or a definition. */
  const toolOf = (b: WireBlock): ChangedTool => {
    const tool = b['tool'];
    return typeof tool === 'object' && tool !== null ? tool : {};
  };

  /** Every request after the first sends the first one's `system` and up-front tools unchanged, and its messages as a prefix. */
  function assertAppendOnly(requests: readonly RecordedRequest[]): void {
    const bodies = requests.map((r) => r.body);
    for (let i = 1; i < bodies.length; i++) {
      const [before, after] = [bodies[i - 1], bodies[i]];
      assert.ok(before && after);
      assert.deepEqual(withoutCache(after.system), withoutCache(before.system), `request ${i}: system changed`);
      assert.equal(upFront(after), upFront(before), `request ${i}: the tools loaded up front changed`);
      const was = withoutCache(before.messages) as MessagesBody['messages'];
      const now = withoutCache(after.messages) as MessagesBody['messages'];
      was.forEach((m, j) => {
        const grows = j === was.length - 1;
        assert.deepEqual(grows ? now[j]?.content.slice(0, m.content.length) : now[j]?.content, m.content, `request ${i}: message ${j} changed`);
      });
    }
  }

  it('/use NAME as the first message with every tool off: the forced tool goes up front, and is withdrawn by an appended removal', async () => {
    h = await harness({ servers: servers(), tools: allOff, script: [reply(toolUse('q1', 'db__query', { arg: 'select 1' })), reply(text('1 row')), reply(text('ok'))] });
    assert.equal((await h.session.send('run the query', signal(), 'db__query')).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    const first = h.api.requests[0]?.body;
    assert.ok(first);
    assert.deepEqual(first.tools?.map((t) => [t.name, t.defer_loading === true]), [['db__query', false]], 'the forced tool is the one up front');
    assert.deepEqual(h.api.requests[0]?.offeredTools, ['db__query']);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['db__query']);

    assert.equal((await h.session.send('thanks', signal())).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    const later = h.api.requests.at(-1);
    assert.deepEqual(later?.offeredTools, [], 'the /use ended with its message');
    assert.deepEqual(toolNames(later?.body), ['db__query'], 'withdrawn by a removal, not by editing the array');
    const removal = systemBlocks(later?.body).filter((b) => b.type === 'tool_removal').map((b) => toolOf(b).name);
    assert.deepEqual(removal, ['db__query']);
    assert.match(JSON.stringify(systemBlocks(later?.body)), /offered for an earlier message only \(\/use\)/);
    assert.ok(!h.api.requests.some((r) => deferredOnly(r.body)));
    assertAppendOnly(h.api.requests);
  });

  it('every tool off, then one turned on between messages: no tools array at first, then the tool defined inline', async () => {
    h = await harness({ servers: servers(), tools: allOff, script: [reply(text('Hello.')), reply(toolUse('q1', 'db__query', { arg: 'select 1' })), reply(text('1 row')), reply(text('ok'))] });
    assert.equal((await h.session.send('hello', signal())).reason, 'done');
    assert.equal(h.api.requests[0]?.body.tools, undefined, 'nothing offered: no tools array');

    h.settings.tools = { ...allOff, db__query: { enable: 'on' } };
    assert.equal((await h.session.send('run the query', signal())).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['db__query']);
    const second = h.api.requests[1];
    assert.deepEqual(second?.offeredTools, ['db__query']);
    assert.equal(second?.body.tools, undefined, 'the tools array stays as first sent: absent');
    const additions = systemBlocks(second?.body).filter((b) => b.type === 'tool_addition');
    assert.deepEqual(additions.map((b) => [toolOf(b).type, toolOf(b).definition?.name]), [['tool_definition', 'db__query']]);
    assert.ok(second?.betas.includes('inline-tools-2026-09-15'));

    h.settings.tools = allOff;
    assert.equal((await h.session.send('thanks', signal())).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    const last = h.api.requests.at(-1);
    assert.deepEqual(last?.offeredTools, []);
    assert.deepEqual(systemBlocks(last?.body).filter((b) => b.type === 'tool_removal').map((b) => toolOf(b).name), ['db__query']);
    assert.ok(!h.api.requests.some((r) => deferredOnly(r.body)));
    assert.deepEqual([...new Set(h.api.requests.map((r) => r.betas.join(',')))], ['inline-tools-2026-09-15,compact-2026-01-12'], 'one set of betas for the whole conversation');
    assertAppendOnly(h.api.requests);
  });

  it('every tool off, then tools made discoverable: search_tools and what it finds are defined inline, and a reopened conversation sends the same bytes', async () => {
    h = await harness({
      servers: servers(),
      tools: allOff,
      script: [reply(text('Hello.')), reply(toolUse('s1', 'search_tools', { query: 'deploy' })), reply(toolUse('d1', 'ci__deploy', { arg: 'prod' })), reply(text('Deployed.')), reply(text('again'))],
    });
    assert.equal((await h.session.send('hello', signal())).reason, 'done');
    h.settings.tools = { '*': { enable: 'discoverable', run: 'unattended' } };
    assert.equal((await h.session.send('deploy it', signal())).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['ci__deploy']);
    const afterSearch = h.api.requests[2];
    assert.ok(afterSearch);
    assert.ok(afterSearch.offeredTools?.includes('ci__deploy'), 'the found tool is offered in the next request');
    assert.equal(afterSearch.body.tools, undefined);
    const defined = systemBlocks(afterSearch.body).filter((b) => b.type === 'tool_addition' && toolOf(b).type === 'tool_definition').map((b) => toolOf(b).definition?.name);
    assert.deepEqual(defined.sort(), ['ci__deploy', 'describe_tools', 'search_tools']);
    assert.ok(!h.api.requests.some((r) => deferredOnly(r.body)));
    assertAppendOnly(h.api.requests);

    const reopened = await h.reopen();
    assert.equal((await reopened.send('once more', signal())).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    assertAppendOnly(h.api.requests);
  });

  it('a model without tool changes: /use first puts the tool up front; a tool turned on later waits for a new chat, and no request is refused', async () => {
    h = await harness({ model: 'claude-sonnet-5', servers: servers(), tools: allOff, script: [reply(toolUse('q1', 'db__query', { arg: 'x' })), reply(text('1 row')), reply(text('ok'))] });
    assert.equal((await h.session.send('run the query', signal(), 'db__query')).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['db__query']);
    assert.deepEqual(h.api.requests[0]?.body.tools?.map((t) => t.name), ['db__query']);

    await h.close();
    h = await harness({ model: 'claude-sonnet-5', servers: servers(), tools: allOff, script: [reply(text('Hello.')), reply(text('ok'))] });
    assert.equal((await h.session.send('hello', signal())).reason, 'done');
    h.settings.tools = { ...allOff, db__query: { enable: 'on' } };
    assert.equal((await h.session.send('run the query', signal())).reason, 'done');
    assert.deepEqual(rejected(h.api.requests), []);
    assert.equal(h.api.requests[1]?.body.tools, undefined);
    assert.deepEqual(h.api.requests[1]?.offeredTools, []);
    assert.match(JSON.stringify(h.api.requests[1]?.body.messages), /will be offered in a new chat/);
    assertAppendOnly(h.api.requests);
  });
});
