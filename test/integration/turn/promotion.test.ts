import assert from 'node:assert/strict';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, lastToolResults, offeredIn, ScriptedApprover, signal, toolNames, type Harness } from './harness';

const servers = () => ({
  ci: { running: true, tools: [{ name: 'deploy', description: 'Deploy a build.' }, { name: 'deploy_staging', description: 'Deploy to staging.' }, { name: 'status', description: 'Pipeline status.' }, { name: 'logs', description: 'Build logs.' }] },
});
const discoverable = { '*': { enable: 'discoverable' }, ci__status: { enable: 'on' } };

describe('promotion through search_tools (real SDK, scripted API)', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('the promoted definitions are in the very next request of the same turn, beside the search result; others are not', async () => {
    h = await harness({
      servers: servers(),
      tools: discoverable,
      script: [reply(toolUse('s1', 'search_tools', { query: 'staging' })), reply(toolUse('c1', 'ci__deploy_staging', {})), reply(text('Deployed.'))],
    });
    const result = await h.session.send('deploy to staging', signal());
    assert.equal(result.reason, 'done');
    const [first, second, third] = h.api.requests.map((r) => r.body);
    assert.deepEqual(toolNames(first), ['search_tools', 'describe_tools', 'ci__status']);
    assert.deepEqual(toolNames(second), ['search_tools', 'describe_tools', 'ci__status', 'ci__deploy_staging'], 'the promoted tool follows those loaded up front');
    assert.ok(!toolNames(second).includes('ci__deploy'), 'a tool the search did not return is not offered');
    const [searchResult] = lastToolResults(second);
    assert.equal(searchResult?.id, 's1');
    assert.match(searchResult?.text ?? '', /"name":"ci__deploy_staging".*"status":"usable"/);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['ci__deploy_staging']);
    assert.ok(toolNames(third).includes('ci__deploy_staging'));
    const deltas = h.conversation.events().filter((e) => e.type === 'config_delta' && e.source === 'promotion');
    assert.deepEqual(deltas.map((e) => (e.type === 'config_delta' ? e.tools : {})), [{ ci__deploy_staging: { enable: { availability: 'on' } } }]);
  });

  it('a promotion folded after an approved disable of the same tool (earlier call, same cycle) leaves it off: found, unavailable', async () => {
    let current: Harness | undefined;
    // While approving call 0, the user turns ci__deploy off for this conversation.
    const approver = new ScriptedApprover(['allow_once'], async () => {
      await current?.session.toggle({ kind: 'named', name: 'ci__deploy' }, 'disable');
    });
    h = current = await harness({
      servers: servers(),
      tools: { ...discoverable, ci__logs: { enable: 'on' } },
      approver,
      script: [reply(toolUse('c0', 'ci__logs', {}), toolUse('s1', 'search_tools', { query: 'deploy a build' })), reply(text('It is turned off.'))],
    });
    await h.session.send('deploy', signal());
    const second = h.api.requests[1]?.body;
    assert.ok(!offeredIn(second).includes('ci__deploy'));
    const search = lastToolResults(second).find((r) => r.id === 's1');
    assert.match(search?.text ?? '', /"name":"ci__deploy".*"status":"found, unavailable"/);
    const sources = h.conversation.events().filter((e) => e.type === 'config_delta').map((e) => (e.type === 'config_delta' ? e.source : ''));
    assert.deepEqual(sources, ['settings', 'user'], 'the user disable is recorded; no promotion delta');
  });

  it('two searches in one cycle matching the same tool both report usable, with one delta', async () => {
    h = await harness({
      servers: servers(),
      tools: discoverable,
      script: [reply(toolUse('s1', 'search_tools', { query: 'deploy' }), toolUse('s2', 'search_tools', { query: 'staging' })), reply(text('ok'))],
    });
    await h.session.send('find deploy tools', signal());
    const results = lastToolResults(h.api.requests[1]?.body);
    assert.match(results[0]?.text ?? '', /"name":"ci__deploy_staging","status":"usable"/);
    assert.match(results[1]?.text ?? '', /"name":"ci__deploy_staging","status":"usable"/);
    const promotions = h.conversation.events().filter((e) => e.type === 'config_delta' && e.source === 'promotion');
    assert.equal(promotions.length, 1);
    assert.deepEqual(toolNames(h.api.requests[1]?.body), ['search_tools', 'describe_tools', 'ci__status', 'ci__deploy', 'ci__deploy_staging']);
  });

  it('reloading reconstructs promotions from the stream alone', async () => {
    h = await harness({
      servers: servers(),
      tools: discoverable,
      script: [reply(toolUse('s1', 'search_tools', { query: 'logs' })), reply(text('found')), reply(text('again'))],
    });
    await h.session.send('logs?', signal());
    const reopened = await h.reopen();
    await reopened.send('and now?', signal());
    assert.deepEqual(toolNames(h.api.requests[2]?.body), ['search_tools', 'describe_tools', 'ci__status', 'ci__logs']);
  });

  it('restart within a turn keeps the promotions made before it', async () => {
    h = await harness({
      servers: servers(),
      tools: discoverable,
      script: [reply(toolUse('s1', 'search_tools', { query: 'logs' })), reply(text('first answer')), reply(text('second answer'))],
    });
    await h.session.send('logs?', signal());
    const restarted = await h.session.restart(signal());
    assert.equal(restarted.reason, 'done');
    const third = h.api.requests[2]?.body;
    assert.ok(toolNames(third).includes('ci__logs'));
    assert.equal(JSON.stringify(third?.messages).includes('first answer'), false, 'the regenerated reply is not sent back');
    assert.equal(lastToolResults(third)[0]?.id, 's1', 'the search result it came from is still there');
  });

  it('a settings edit during a turn takes effect at the next request: a tool turned off is neither offered nor run', async () => {
    let current: Harness | undefined;
    const approver = new ScriptedApprover(['allow_once'], () => {
      if (current) current.settings.tools = { ...discoverable, ci__logs: { enable: 'off' }, 'ci__*': { enable: 'on' } };
      return Promise.resolve();
    });
    h = current = await harness({
      servers: servers(),
      tools: { ...discoverable, 'ci__*': { enable: 'on' } },
      approver,
      script: [reply(toolUse('c1', 'ci__status', {})), reply(toolUse('c2', 'ci__logs', {})), reply(text('Done.'))],
    });
    const result = await h.session.send('status, then logs', signal());
    assert.equal(result.reason, 'done');
    const [first, second] = h.api.requests.map((r) => r.body);
    assert.ok(offeredIn(first).includes('ci__logs'));
    assert.ok(!offeredIn(second).includes('ci__logs'), 'the next request no longer offers the tool the user turned off');
    assert.match(appendedSystemText(second), /No longer available \(turned off in the editor\): ci__logs/);
    assert.equal(JSON.stringify(second?.tools), JSON.stringify(first?.tools), 'withdrawn by an appended tool_removal, the tools array as first sent');
    assert.deepEqual(h.source.calls.map((c) => c.name), ['ci__status'], 'the off tool never ran');
  });
});
