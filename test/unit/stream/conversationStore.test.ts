import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import { serializeEvent } from '../../../src/core/stream/jsonLines';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-11-30T00:00:00.000Z';

describe('ConversationStore', () => {
  let folder: string;
  let store: ConversationStore;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'quiver-store-'));
    store = new ConversationStore(join(folder, 'conversations'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('appends events as JSON lines and reloads them', async () => {
    const c = await store.create();
    const events: StreamEvent[] = [{ type: 'turn_start', at }, { type: 'user_message', text: 'Fix the build\nplease', at }];
    await c.append(...events);
    const { conversation, issues } = await store.open(c.id);
    assert.deepEqual(conversation.events(), events);
    assert.deepEqual(issues, []);
    assert.equal(conversation.title(), 'Fix the build please');
  });

  it('appends without rewriting: earlier bytes stay as they were', async () => {
    const c = await store.create();
    await c.append({ type: 'turn_start', at });
    const before = await readFile(c.file, 'utf8');
    await c.append({ type: 'user_message', text: 'x', at });
    const after = await readFile(c.file, 'utf8');
    assert.ok(after.startsWith(before));
    assert.equal(after.length - before.length, serializeEvent({ type: 'user_message', text: 'x', at }).length);
  });

  it('a file torn mid-line reloads with everything before the tear, and the next append cuts the torn bytes', async () => {
    const c = await store.create();
    await c.append({ type: 'turn_start', at }, { type: 'user_message', text: 'kept', at });
    await appendFile(c.file, '{"type":"assistant_message","content":[{"type":"te');
    const { conversation, issues } = await store.open(c.id);
    assert.deepEqual(conversation.events().map((e) => e.type), ['turn_start', 'user_message']);
    assert.equal(issues.length, 1);
    assert.match(issues[0]?.message ?? '', /cut short/);
    await conversation.append({ type: 'turn_end', reason: 'done', at });
    const reloaded = await store.open(c.id);
    assert.deepEqual(reloaded.issues, []);
    assert.deepEqual(reloaded.conversation.events().map((e) => e.type), ['turn_start', 'user_message', 'turn_end']);
  });

  it('lists the most recently active first with titles, renames and deletes; a rename is not activity', async () => {
    const a = await store.create();
    await a.append({ type: 'user_message', text: 'first chat', at: '2026-11-30T10:00:00.000Z' });
    await new Promise((r) => setTimeout(r, 20));
    const b = await store.create();
    await b.append({ type: 'user_message', text: 'second chat', at: '2026-11-30T11:00:00.000Z' });
    assert.deepEqual((await store.list()).map((s) => s.title), ['second chat', 'first chat']);
    await store.rename(a.id, '  Renamed  ');
    const list = await store.list();
    assert.deepEqual(list.map((s) => s.title), ['second chat', 'Renamed'], 'renaming the older chat leaves it where it was');
    assert.equal(list[1]?.updated.toISOString(), '2026-11-30T10:00:00.000Z', 'its date stays that of its last message');
    await a.append({ type: 'user_message', text: 'back to the first', at: '2026-11-30T12:00:00.000Z' });
    assert.deepEqual((await store.list()).map((s) => s.title), ['Renamed', 'second chat'], 'a new message is activity');
    await store.delete(b.id);
    assert.deepEqual((await store.list()).map((s) => s.id), [a.id]);
    await assert.rejects(stat(b.file));
  });

  it('refuses ids that are not conversation ids (no path traversal)', async () => {
    await assert.rejects(store.open('../secrets'), /not a conversation id/);
  });

  it('an empty folder lists nothing', async () => {
    assert.deepEqual(await new ConversationStore(join(folder, 'missing')).list(), []);
  });

  it('titles a long conversation by its first message and last rename, and relists a changed file', async () => {
    const c = await store.create();
    const bulky = 'x'.repeat(50_000);
    await c.append({ type: 'user_message', text: 'plan the release', at });
    for (let i = 0; i < 20; i++) {
      await c.append({ type: 'tool_result', toolUseId: `t${i}`, name: 'fs__read', content: [{ type: 'text', text: `${bulky} "renamed" "user_message"` }], isError: false, at });
    }
    assert.deepEqual((await store.list()).map((s) => s.title), ['plan the release']);
    await c.append({ type: 'renamed', title: 'Release plan', at });
    await c.append({ type: 'user_message', text: 'and the changelog', at });
    assert.deepEqual((await store.list()).map((s) => s.title), ['Release plan']);
    await appendFile(c.file, '{"type":"renamed","title":');
    assert.deepEqual((await store.list()).map((s) => s.title), ['Release plan'], 'a torn last line is ignored');
  });
});

