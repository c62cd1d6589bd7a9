import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attachment } from '../../../src/core/attachments';
import { TRUSTED_USER_SCOPE } from '../../../src/core/availability';
import { ChatSession, type ChatSessionPorts } from '../../../src/core/chatSession';
import { applyHostMessage, type ChatSnapshot, type HostToWebview } from '../../../src/core/chatView';
import { SETTINGS } from '../../../src/core/settings';
import { ConversationStore } from '../../../src/core/stream';
import { REPLY_RUNNING, type TurnSettings } from '../../../src/core/turn';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { apiError, reply, text } from '../../fixtures/messagesApi/script';
import { ScriptedMessagesApi, type ScriptStep } from '../../fixtures/scriptedMessagesApi';
import { DEFAULT_RESULTS, MemoryToolSource, substringBuiltins } from '../../integration/turn/harness';

const SETTINGS_NOW: TurnSettings = {
  tools: {}, model: SETTINGS.model.fallback, maxTokens: 0, thinking: 'adaptive', effort: undefined, maxCyclesPerTurn: 10,
  searchLoadBudget: SETTINGS.searchMaxLoadTokens.fallback, results: DEFAULT_RESULTS, contextManagement: 'auto', cacheTtl: 'auto',
};

const selection = (id: string): Attachment => ({ kind: 'selection', id, uri: 'file:///w/a.ts', path: 'a.ts', language: 'typescript', range: { start: 1, end: 2 }, text: 'let a = 1;' });

/** A chat session over a real store in a temporary folder and the real SDK against the scripted Messages API. */
async function chatOver(script: readonly ScriptStep[], remembered?: string, folder?: string) {
  const api = await ScriptedMessagesApi.start(script);
  const dir = folder ?? (await mkdtemp(join(tmpdir(), 'quiver-chat-')));
  const store = new ConversationStore(dir);
  const memory = { active: remembered };
  const logged: string[] = [];
  const ports: ChatSessionPorts = {
    store, source: new MemoryToolSource({}), builtins: substringBuiltins,
    modelClient: () => new AnthropicModelClient({ apiKey: 'test-key', baseURL: api.url, maxRetries: 0 }),
    settings: () => SETTINGS_NOW, runTrust: () => TRUSTED_USER_SCOPE,
    modelName: () => SETTINGS_NOW.model, apiKeySet: () => Promise.resolve(true),
    lastOpened: { get: () => memory.active, set: (id) => Promise.resolve(void (memory.active = id)) },
    log: { error: (m) => logged.push(m), warn: (m) => logged.push(m) },
    alwaysAllow: () => Promise.resolve(), openResult: () => Promise.resolve(false),
    changes: { open: () => Promise.resolve(), undo: () => Promise.resolve(undefined) },
    proposals: { show: () => undefined, close: () => undefined }, openExternal: () => Promise.resolve(),
  };
  const chat = new ChatSession(ports);
  const posted: HostToWebview[] = [];
  chat.onPost((msg) => posted.push(msg));
  await chat.start();
  const first = posted.find((m): m is Extract<HostToWebview, { type: 'snapshot' }> => m.type === 'snapshot');
  assert.ok(first, 'start posts a snapshot');
  return {
    api, chat, posted, memory, dir, store,
    banners: () => posted.filter((m) => m.type === 'banner').map((m) => (m as { message: string }).message),
    /** What a webview that applied every posted message since the first snapshot shows. */
    mirrored: (): ChatSnapshot => posted.slice(posted.indexOf(first) + 1).reduce(applyHostMessage, first.state),
    close: async () => {
      await api.close();
      if (folder === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}

const users = (s: ChatSnapshot) => s.items.filter((i) => i.kind === 'user');

describe('ChatSession: the chat state machine without an editor', () => {
  it('opens a new conversation at start and remembers it; a second start reopens the remembered one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'quiver-chat-'));
    const a = await chatOver([reply(text('Hello.'))], undefined, folder);
    await a.chat.sendMessage({ text: 'hi', forcedTool: null, attachments: [] });
    const id = a.chat.snapshot().conversation.id;
    assert.equal(a.memory.active, id);
    await a.close();
    const b = await chatOver([], id, folder);
    assert.equal(b.chat.snapshot().conversation.id, id);
    assert.deepEqual(users(b.chat.snapshot()).map((u) => u.text), ['hi']);
    await b.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('a sent message gets a live id, then the stream\'s items; the snapshot is what the posted messages build', async () => {
    const t = await chatOver([reply(text('First answer.')), reply(text('Second answer.'))]);
    await t.chat.sendMessage({ text: 'one', forcedTool: null, attachments: [] });
    await t.chat.sendMessage({ text: 'two', forcedTool: null, attachments: [] });
    const started = t.posted.filter((m) => m.type === 'turnStarted').map((m) => (m as { user: { id: string } | null }).user?.id);
    assert.equal(new Set(started).size, 2, 'each sent message has its own live id');
    assert.ok(started.every((id) => id?.startsWith('live-user-')), String(started));
    const deltas = new Set(t.posted.filter((m) => m.type === 'textDelta').map((m) => (m as { itemId: string }).itemId));
    assert.equal(deltas.size, 2, 'each reply streams into its own live item');
    const snap = t.chat.snapshot();
    assert.equal(snap.busy, false);
    assert.deepEqual(users(snap).map((u) => [u.text, u.status]), [['one', 'sent'], ['two', 'sent']]);
    assert.deepEqual(snap.items.filter((i) => i.kind === 'assistant').map((i) => (i as { markdown: string }).markdown), ['First answer.', 'Second answer.']);
    assert.deepEqual(t.mirrored(), snap);
    await t.close();
  });

  it('one turn at a time: a message, a regenerate or a retry while a reply runs gets the one "still running" banner and sends nothing', async () => {
    const t = await chatOver([{ kind: 'reply', content: [text('Working on it, this takes a while')], holdAfter: 3 }, reply(text('after'))]);
    const first = t.chat.sendMessage({ text: 'slow', forcedTool: null, attachments: [] });
    while (t.api.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await t.chat.sendMessage({ text: 'again', forcedTool: null, attachments: [] });
    await t.chat.regenerate();
    await t.chat.retryMessage('e0');
    assert.deepEqual(t.banners(), [REPLY_RUNNING, REPLY_RUNNING, REPLY_RUNNING]);
    assert.equal(t.chat.snapshot().busy, true);
    t.chat.stop();
    await first;
    assert.equal(t.api.requests.length, 1);
    assert.equal(t.chat.snapshot().busy, false);
    await t.chat.sendMessage({ text: 'now', forcedTool: null, attachments: [] });
    assert.equal(t.api.requests.length, 2, 'after Stop the next message runs');
    await t.close();
  });

  it('attachments wait as chips, go with the next message, and stay findable once recorded', async () => {
    const t = await chatOver([reply(text('Seen.'))]);
    t.chat.attach([selection('s1'), selection('s2')]);
    t.chat.removeAttachment('s1');
    assert.deepEqual(t.chat.snapshot().attachments.map((c) => c.id), ['s2']);
    await t.chat.sendMessage({ text: 'look', forcedTool: null, attachments: [selection('s3')] });
    assert.deepEqual(t.chat.snapshot().attachments, [], 'sending empties the waiting chips');
    assert.deepEqual(users(t.chat.snapshot())[0]?.attachments.map((c) => c.id), ['s2', 's3']);
    assert.equal(t.chat.findAttachment('s3')?.text, 'let a = 1;');
    assert.equal(t.chat.findAttachment('s1'), undefined);
    await t.close();
  });

  it('a failed message can be retried (its failed copy goes) or dropped; anything else is not retried', async () => {
    const t = await chatOver([apiError(500), reply(text('Recovered.')), apiError(500)]);
    await t.chat.sendMessage({ text: 'try', forcedTool: null, attachments: [] });
    const failed = users(t.chat.snapshot());
    assert.deepEqual(failed.map((u) => u.status), ['failed']);
    await t.chat.retryMessage(failed[0]?.id ?? '');
    assert.deepEqual(users(t.chat.snapshot()).map((u) => [u.text, u.status]), [['try', 'sent']]);
    await t.chat.sendMessage({ text: 'again', forcedTool: null, attachments: [] });
    const second = users(t.chat.snapshot()).find((u) => u.status === 'failed');
    assert.ok(second);
    await t.chat.dropMessage(second.id);
    assert.deepEqual(users(t.chat.snapshot()).map((u) => u.text), ['try']);
    await t.chat.retryMessage(second.id);
    assert.equal(t.banners().at(-1), 'That message is no longer waiting to be retried.');
    assert.deepEqual(t.mirrored(), t.chat.snapshot());
    await t.close();
  });

  it('New Chat leaves no file for an empty chat; an unknown conversation is refused with a banner', async () => {
    const t = await chatOver([]);
    const empty = t.chat.snapshot().conversation.id;
    await t.chat.newChat();
    assert.notEqual(t.chat.snapshot().conversation.id, empty);
    assert.ok(!(await readdir(t.dir)).some((f) => f.startsWith(empty)), 'the empty conversation was not kept');
    await t.chat.openConversation('no-such-conversation');
    assert.equal(t.banners().at(-1), 'That conversation could not be opened; it may have been deleted.');
    await t.close();
  });
});
