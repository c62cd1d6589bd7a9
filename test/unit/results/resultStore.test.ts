import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import { refCounter } from '../../../src/core/results/resultRefs';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-12-01T00:00:00.000Z';
const kept = (ref: string): StreamEvent => ({ type: 'tool_result', toolUseId: `t-${ref}`, name: 'x__y', content: [{ type: 'text', text: 'view' }], isError: false, kept: { ref, status: 'truncated', shownChars: 4, totalChars: 40 }, at });

describe('the result store', () => {
  let folder: string;
  let store: ConversationStore;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'quiver-results-'));
    store = new ConversationStore(folder);
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('keeps a whole result beside the conversation and reads it back, images and all', async () => {
    const c = await store.create();
    const content = [{ type: 'text' as const, text: 'x'.repeat(300_000) }, { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' }];
    await store.resultsOf(c.id).put('r1', { name: 'x__y', content });
    assert.deepEqual(await store.resultsOf(c.id).get('r1'), { name: 'x__y', content });
    assert.equal(await store.resultsOf(c.id).get('r2'), undefined);
    assert.deepEqual((await readdir(folder)).sort(), [`${c.id}.jsonl`, `${c.id}.results`]);
  });

  it('opens nothing but a ref\'s own file: another name is refused, a path never reaches the disk', async () => {
    const c = await store.create();
    await assert.rejects(store.resultsOf(c.id).put('../escape', { name: 'x', content: [] }), /"\.\.\/escape" is not a result reference/);
    for (const ref of ['../../etc/passwd', `../${c.id}.jsonl`, 'r1.json', 'R1', '']) assert.equal(await store.resultsOf(c.id).get(ref), undefined, ref);
    assert.throws(() => store.resultsOf('../c-x-00000000'), /is not a conversation id/);
  });

  it('goes with its conversation, and the listing never counts it as one', async () => {
    const c = await store.create();
    await c.append({ type: 'user_message', text: 'hi', at });
    await store.resultsOf(c.id).put('r1', { name: 'x__y', content: [{ type: 'text', text: 'whole' }] });
    assert.deepEqual((await store.list()).map((s) => s.id), [c.id]);
    await store.delete(c.id);
    assert.deepEqual(await readdir(folder), []);
    assert.equal(await store.resultsOf(c.id).get('r1'), undefined);
  });

  it('a damaged file is an error that names the ref, not a silent miss', async () => {
    const c = await store.create();
    await store.resultsOf(c.id).put('r1', { name: 'x__y', content: [] });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(folder, `${c.id}.results`, 'r1.json'), '{"name": 3}');
    await assert.rejects(store.resultsOf(c.id).get('r1'), /the kept result r1 is damaged/);
  });

  it('refs count on from the highest the stream recorded', () => {
    const next = refCounter([kept('r1'), kept('r7'), kept('r3')]);
    assert.deepEqual([next(), next()], ['r8', 'r9']);
    assert.equal(refCounter([])(), 'r1');
  });
});
