import assert from 'node:assert/strict';
import { historyFromStream } from '../../../src/core/chat';
import { apiError, reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, ScriptedApprover, signal, type Harness } from './harness';

const servers = { ci: { running: true, tools: [{ name: 'status' }, { name: 'deploy' }] } };
const userTexts = (body: { messages: readonly { role: string; content: readonly { type: string; text?: string }[] }[] } | undefined): string[] =>
  (body?.messages ?? []).filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text ?? ''));

describe('a message the API refuses does not poison the conversation', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  for (const [status, type, cause] of [[401, 'authentication_error', 'the API refused the key (401)'], [400, 'invalid_request_error', 'the API refused it (400 refused)']] as const) {
    it(`after a ${status}, the next message is sent alone and gets a normal reply; the failed one says why ("${cause}")`, async () => {
      h = await harness({ servers, script: [apiError(status, type, 'refused'), reply(text('Hello again.'))] });
      assert.equal((await h.session.send('first try', signal())).reason, 'error');
      assert.equal((await h.session.send('second message', signal())).reason, 'done');
      assert.deepEqual(userTexts(h.api.requests[1]?.body), ['second message']);
      const items = historyFromStream(h.conversation.events(), false).items;
      const users = items.flatMap((i) => (i.kind === 'user' ? [[i.text, i.status, i.cause]] : []));
      assert.deepEqual(users, [['first try', 'failed', cause], ['second message', 'sent', undefined]]);
    });
  }

  it('a dropped failed message leaves the chat with its refusal, and stays dropped when the conversation is reopened', async () => {
    h = await harness({ servers, script: [apiError(401, 'authentication_error', 'bad key')] });
    await h.session.send('lost', signal());
    const index = h.conversation.events().findIndex((e) => e.type === 'user_message');
    await h.conversation.append({ type: 'message_dropped', index, at: new Date().toISOString() });
    const reopened = (await h.store.open(h.conversation.id)).conversation;
    assert.deepEqual(historyFromStream(reopened.events(), false).items, []);
  });

  it('a retry drops the failed copy only when the new message is recorded: a refused retry loses nothing', async () => {
    h = await harness({ servers, tools: { ci__deploy: { enable: { availability: 'off', allow_toggle: 'never' } } }, script: [apiError(401, 'authentication_error', 'bad key'), reply(text('done'))] });
    await h.session.send('deploy', signal());
    const failed = h.conversation.events().findIndex((e) => e.type === 'user_message');
    assert.equal((await h.session.send('deploy', signal(), 'ci__deploy', [], failed)).reason, 'refused');
    assert.deepEqual(historyFromStream(h.conversation.events(), false).items.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' ? i.status : ''), ['failed'], 'still there to retry');
    assert.equal((await h.session.send('deploy', signal(), undefined, [], failed)).reason, 'done');
    const users = historyFromStream(h.conversation.events(), false).items.flatMap((i) => (i.kind === 'user' ? [[i.text, i.status]] : []));
    assert.deepEqual(users, [['deploy', 'sent']], 'the failed copy went when the retry was recorded');
  });

  it('a reply that failed after a tool ran keeps its message: it was answered, and the results follow it', async () => {
    h = await harness({ servers, approver: new ScriptedApprover(['allow_once']), script: [reply(toolUse('c1', 'ci__status', {})), apiError(500), reply(text('ok'))] });
    assert.equal((await h.session.send('status?', signal())).reason, 'error');
    assert.equal((await h.session.send('and now?', signal())).reason, 'done');
    assert.deepEqual(userTexts(h.api.requests[2]?.body), ['status?', 'and now?']);
  });
});
