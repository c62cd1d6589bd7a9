import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptResults } from '../../../src/core/results/keptResults';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';

const settings = { maxTokens: 1_000, thresholdTokens: 1_000 };
const long: ToolCallResult = { content: [{ type: 'text', text: Array.from({ length: 3_000 }, (_, i) => `row ${i + 1}`).join('\n') }], isError: false };
const recorded = (ref: string): StreamEvent => ({ type: 'tool_result', toolUseId: 't', name: 'db__query', content: [], isError: false, kept: { ref, status: 'truncated', shownChars: 1, totalChars: 2 }, at: '2026-12-01T00:00:00.000Z' });
const textOf = (r: ToolCallResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('kept results of one conversation', () => {
  let folder: string;
  beforeEach(async () => (folder = await mkdtemp(join(tmpdir(), 'quiver-kept-'))));
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('a conversation reads its own kept results and never another\'s, even one that names the same ref', async () => {
    const store = new ConversationStore(folder);
    const [a, b] = [await store.create(), await store.create()];
    const shaped = await keptResults({ store: store.resultsOf(a.id), events: [], resolved: new Map(), permitted: [], settings }).shape('db__query', long);
    assert.equal(shaped.kept?.ref, 'r1');
    const ownRead = await keptResults({ store: store.resultsOf(a.id), events: [recorded('r1')], resolved: new Map(), permitted: [], settings }).read({ ref: 'r1', grep: 'row 2999' });
    assert.match(textOf(ownRead), /^\[r1: 1 line contains "row 2999"/);
    // B never kept r1: its stream does not name it.
    const other = await keptResults({ store: store.resultsOf(b.id), events: [], resolved: new Map(), permitted: [], settings }).read({ ref: 'r1' });
    assert.equal(textOf(other), 'read_result: this conversation kept no result "r1". None of its results was kept.');
    // A stream that claims r1 still opens only B's own folder, where there is none.
    const forged = await keptResults({ store: store.resultsOf(b.id), events: [recorded('r1')], resolved: new Map(), permitted: [], settings }).read({ ref: 'r1' });
    assert.match(textOf(forged), /^read_result: r1 is gone from this conversation's storage/);
  });

  it('a result within its limit is passed on untouched and nothing is kept', async () => {
    const store = new ConversationStore(folder);
    const c = await store.create();
    const small: ToolCallResult = { content: [{ type: 'text', text: 'three rows' }], isError: false };
    const shaped = await keptResults({ store: store.resultsOf(c.id), events: [], resolved: new Map(), permitted: [], settings }).shape('db__query', small);
    assert.deepEqual(shaped, { result: small });
    assert.equal(await store.resultsOf(c.id).get('r1'), undefined);
  });
});
