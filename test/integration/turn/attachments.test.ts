import assert from 'node:assert/strict';
import type { Attachment } from '../../../src/core/attachments/attachment';
import { fileBlock, selectionBlock } from '../../../src/core/attachments/blocks';
import { historyFromStream } from '../../../src/core/chat';
import { reply, text, type MessagesBody } from '../../fixtures/scriptedMessagesApi';
import { harness, signal, type Harness } from './harness';

const code = 'function add(a, b) {\n  return a + b;\n}';
const selection: Attachment = {
  kind: 'selection', id: 'att-1', uri: 'file:///ws/src/math.js', path: 'src/math.js', language: 'javascript', range: { start: 4, end: 6 },
  text: selectionBlock('src/math.js', 'javascript', { start: 4, end: 6 }, code),
};
const long = fileBlock('data/log.txt', 'plaintext', 'x'.repeat(300), 120);
const file: Attachment = { kind: 'file', id: 'att-2', uri: 'file:///ws/data/log.txt', path: 'data/log.txt', language: 'plaintext', range: long.range, text: long.text };

/** The text blocks of each user message, without the cache markers that move from request to request. */
const userTexts = (body: MessagesBody | undefined): string[][] =>
  (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.content.map((b) => (b.type === 'text' ? (b.text ?? '') : b.type)));

describe('attachments reach the model as text blocks of the user message', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('each attachment is a block before the words, with its path, language and lines; a long one carries its cut marker', async () => {
    h = await harness({ servers: {}, script: [reply(text('It adds two numbers.'))] });
    assert.equal((await h.session.send('what does this do?', signal(), undefined, [selection, file])).reason, 'done');
    const [message] = userTexts(h.api.requests[0]?.body);
    assert.deepEqual(message, [selection.text, file.text, 'what does this do?']);
    assert.match(message?.[0] ?? '', /^Selection from src\/math\.js, lines 4-6 \(javascript\):\n```javascript\nfunction add\(a, b\) \{\n {2}return a \+ b;\n\}\n```$/);
    assert.match(message?.[1] ?? '', /\[TRUNCATED: data\/log\.txt is 300 characters \(1 line\); only the first 120/);
  });

  it('a reopened conversation shows the chips and sends the same bytes for the earlier message', async () => {
    h = await harness({ servers: {}, script: [reply(text('It adds two numbers.')), reply(text('Yes, integers too.'))] });
    await h.session.send('what does #selection do?', signal(), undefined, [selection]);
    const reopened = await h.reopen();
    assert.equal((await reopened.send('and for integers?', signal())).reason, 'done');
    const [first, second] = h.api.requests.map((r) => userTexts(r.body));
    assert.deepEqual(second?.[0], first?.[0]);
    assert.deepEqual(second?.[1], ['and for integers?'], 'a later message carries no attachment of its own');
    const events = (await h.store.open(h.conversation.id)).conversation.events();
    const users = historyFromStream(events, false).items.flatMap((i) => (i.kind === 'user' ? [i.attachments] : []));
    assert.deepEqual(users, [[{ id: 'att-1', kind: 'selection', label: 'math.js', path: 'src/math.js', range: { start: 4, end: 6 } }], []]);
  });

  it('a message without attachments is recorded and sent exactly as before', async () => {
    h = await harness({ servers: {}, script: [reply(text('Hi.'))] });
    await h.session.send('hello', signal());
    const recorded = h.conversation.events().find((e) => e.type === 'user_message');
    assert.ok(recorded && !('attachments' in recorded));
    assert.deepEqual(userTexts(h.api.requests[0]?.body), [['hello']]);
  });
});
