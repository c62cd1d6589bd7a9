import assert from 'node:assert/strict';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, offeredIn, signal, toolNames, type Harness } from './harness';

const servers = () => ({ ci: { running: true, tools: [{ name: 'deploy' }, { name: 'status' }] } });

describe('search_tools registration across turns', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('no discoverable tool → no search_tools; a conversation delta introducing one adds it next turn', async () => {
    h = await harness({ servers: servers(), script: [reply(text('one')), reply(text('two'))] });
    await h.session.send('hi', signal());
    assert.deepEqual(toolNames(h.api.requests[0]?.body), ['ci__deploy', 'ci__status']);
    const set = await h.session.assign('tools.ci__deploy.enable=discoverable');
    assert.equal(set.refused, undefined);
    await h.session.send('again', signal());
    const second = h.api.requests[1]?.body;
    assert.deepEqual(offeredIn(second), ['ci__status', 'describe_tools', 'search_tools'], 'added by an appended change');
    assert.deepEqual(second?.system, h.api.requests[0]?.body.system, 'system as first sent');
    assert.match(appendedSystemText(second), /call search_tools/, 'the new instructions are appended');
  });

  it('keeps search_tools after every discoverable tool was promoted', async () => {
    h = await harness({
      servers: servers(),
      tools: { ci__deploy: { enable: 'discoverable' } },
      script: [reply(toolUse('s1', 'search_tools', { query: 'deploy' })), reply(text('found')), reply(text('later'))],
    });
    await h.session.send('deploy', signal());
    await h.session.send('anything else?', signal());
    assert.deepEqual(toolNames(h.api.requests[2]?.body), ['search_tools', 'describe_tools', 'ci__status', 'ci__deploy']);
  });

  it('settings changed between turns are recorded as a settings delta at the next turn start', async () => {
    h = await harness({ servers: servers(), tools: { ci__deploy: { enable: 'on' } }, script: [reply(text('one')), reply(text('two')), reply(text('three'))] });
    await h.session.send('hi', signal());
    h.settings.tools = { ci__deploy: { enable: 'off' } };
    await h.session.send('again', signal());
    await h.session.send('and again', signal());
    const deltas = h.conversation.events().filter((e) => e.type === 'config_delta');
    assert.deepEqual(deltas.map((e) => (e.type === 'config_delta' ? [e.source, e.tools] : [])), [
      ['settings', { ci__deploy: { enable: 'on' } }],
      ['settings', { ci__deploy: { enable: 'off' } }],
    ]);
    assert.deepEqual(offeredIn(h.api.requests[1]?.body), ['ci__status']);
  });
});
