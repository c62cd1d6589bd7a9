import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { appendedSystemText, harness, offeredIn, signal, toolNames, type FakeServer, type Harness } from './harness';

// quiver.search.preload with the real ranker (src/core/search) and the real SDK against the
// scripted Messages API: a message its tool matches confidently gets the call in the first
// reply, with no search; a wrong preload is unloaded like any promotion and never comes back,
// and an off tool is never preloaded.

const servers = (): Record<string, FakeServer> => ({
  slack: { running: true, tools: [{ name: 'post_message', description: 'Post a message to a Slack channel.' }, { name: 'list_channels', description: 'List the channels of a workspace.' }] },
  github: { running: true, tools: [{ name: 'create_issue', description: 'Create a new issue in a GitHub repository.' }, { name: 'list_commits', description: 'List the commits of a branch.' }] },
  weather: { running: true, tools: [{ name: 'forecast', description: 'Weather forecast for a city.' }] },
  // Enough catalogue that the first prompt passes Sonnet 5.5's 512-token cache minimum, so "read back" is measurable.
  calendar: { running: true, tools: ['create_event', 'delete_event', 'list_events', 'update_event', 'find_free_time'].map((name) => ({ name, description: `${name.replaceAll('_', ' ')} in a calendar of the user's account, with its title, attendees, start and end time, and time zone.` })) },
});
const discoverable = { '*': { enable: 'discoverable' } };
const preloads = (events: readonly StreamEvent[]) => events.flatMap((e) => (e.type === 'config_delta' && e.preload === true ? [Object.keys(e.tools)] : []));

describe('preloading the tools a message matches (quiver.search.preload)', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a message whose tool is preloaded gets the call in the first reply, appended to an unchanged tools array', async () => {
    h = await harness({ servers: servers(), tools: discoverable, builtins: createSearchBuiltins(), searchPreload: 'on', script: [reply(toolUse('c1', 'slack__post_message', { arg: 'hi' })), reply(text('Posted.'))] });
    const result = await h.session.send('Post a message to the Slack channel #general', signal());
    assert.equal(result.reason, 'done');
    assert.deepEqual(h.source.calls.map((c) => c.name), ['slack__post_message'], 'called from the first reply, no search before it');
    assert.equal(h.api.requests.length, 2);
    const [first, second] = h.api.requests;
    assert.deepEqual(h.api.requests.map((r) => r.rejected), [undefined, undefined]);
    assert.deepEqual(toolNames(first?.body).filter((n) => !n.includes('__')), ['search_tools', 'describe_tools']);
    assert.ok(first?.body.tools?.find((t) => t.name === 'slack__post_message')?.defer_loading, 'the preloaded tool is deferred, not in the array as first sent');
    assert.ok(offeredIn(first?.body).includes('slack__post_message'));
    assert.match(appendedSystemText(first?.body), /Loaded for this message \(it matched them\): slack__post_message/);
    assert.deepEqual(preloads(h.conversation.events()), [['slack__post_message']]);
    const preload = h.conversation.events().find((e) => e.type === 'config_delta' && e.preload === true);
    assert.equal(preload?.type === 'config_delta' ? preload.source : undefined, 'promotion', 'recorded as a promotion');
    assert.equal(JSON.stringify(second?.body.tools), JSON.stringify(first?.body.tools), 'the tools array is the first request\'s');
    assert.equal(second?.cache?.cache_read_input_tokens, first?.cache?.prompt_tokens, '100% of the first prompt read back');
  });

  it('a wrong preload is unloaded like a promotion (an appended removal) and the same words never load it again', async () => {
    h = await harness({
      servers: servers(), tools: discoverable, builtins: createSearchBuiltins(), searchPreload: 'on',
      script: [reply(text('That tool does not fit; I will answer myself.')), reply(text('Still answering myself.'))],
    });
    await h.session.send('Post a message to the Slack channel #general', signal());
    assert.deepEqual(preloads(h.conversation.events()), [['slack__post_message']]);
    const unload = await h.session.toggle({ kind: 'named', name: 'slack__post_message' }, 'disable');
    assert.equal(unload.refused, undefined);
    await h.session.send('Post a message to the Slack channel #general', signal());
    const [first, second] = h.api.requests;
    assert.ok(!offeredIn(second?.body).includes('slack__post_message'), 'unloaded: withdrawn');
    assert.match(appendedSystemText(second?.body), /No longer available \(turned off in the editor\): slack__post_message/);
    assert.ok(!preloads(h.conversation.events()).slice(1).flat().includes('slack__post_message'), 'not preloaded again after the Unload');
    assert.equal(second?.cache?.cache_read_input_tokens, first?.cache?.prompt_tokens, '100% of the previous prompt read back');
    assert.deepEqual(h.source.calls, []);
  });

  it('preloads nothing when the message\'s best match is a tool the model already has, not even the runner-up', async () => {
    // Without the loaded tool in the ranking, "Post a message to the Slack channel" would be
    // confident about the runner-up, slack__list_channels, and load it for nothing.
    h = await harness({ servers: servers(), tools: { ...discoverable, slack__post_message: { enable: 'on' } }, builtins: createSearchBuiltins(), searchPreload: 'on', script: [reply(toolUse('c1', 'slack__post_message', { arg: 'hi' })), reply(text('Posted.'))] });
    await h.session.send('Post a message to the Slack channel #general', signal());
    assert.deepEqual(preloads(h.conversation.events()), []);
    assert.deepEqual(offeredIn(h.api.requests[0]?.body).filter((n) => n.includes('__')), ['slack__post_message']);
    assert.deepEqual(h.source.calls.map((c) => c.name), ['slack__post_message']);
  });

  it('never preloads an off tool, and preloads nothing with the setting off', async () => {
    h = await harness({ servers: servers(), tools: { ...discoverable, slack__post_message: { enable: 'off' } }, builtins: createSearchBuiltins(), searchPreload: 'on', script: [reply(text('a')), reply(text('b'))] });
    await h.session.send('Post a message to the Slack channel #general', signal());
    assert.ok(!(h.api.requests[0]?.body.tools ?? []).some((t) => t.name === 'slack__post_message'), 'the off tool never reaches the model');
    assert.ok(!preloads(h.conversation.events()).flat().includes('slack__post_message'));
    h.settings.tools = discoverable;
    h.settings.searchPreload = 'off';
    await h.session.send('Post a message to the Slack channel #general', signal());
    assert.ok(!offeredIn(h.api.requests[1]?.body).includes('slack__post_message'));
    assert.ok(!preloads(h.conversation.events()).flat().includes('slack__post_message'));
  });
});
