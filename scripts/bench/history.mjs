// The chat history list: titles of many long conversations, as the panel lists them after every
// new chat and every turn. Conversations are written to a temporary folder and removed after.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCompiled } from './compiled.mjs';

/** `count` conversations of about `megabytes` each: one question, then large tool results. */
async function writeConversations(store, folder, count, megabytes) {
  const at = new Date(0).toISOString();
  const text = 'x'.repeat(20_000);
  for (let i = 0; i < count; i++) {
    const conversation = await store.create();
    const lines = [{ type: 'turn_start', at }, { type: 'user_message', text: `question ${i}`, at }];
    for (let k = 0; k * 20_000 < megabytes * 1e6; k++) lines.push({ type: 'tool_result', toolUseId: `t${k}`, name: 'fs__read', content: [{ type: 'text', text }], isError: false, at });
    await writeFile(join(folder, `${conversation.id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  }
}

async function time(work) {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

export async function run(opts) {
  if (opts.noSpeed) return [];
  const load = (path) => loadCompiled(opts.repoRoot, path);
  const { ConversationStore } = await load('src/core/stream/conversationStore.js');
  const { parseStreamText } = await load('src/core/stream/jsonLines.js');
  const { conversationTitle } = await load('src/core/stream/conversation.js');
  const { readFile, readdir } = await import('node:fs/promises');
  const folder = await mkdtemp(join(tmpdir(), 'quiver-bench-history-'));
  const [count, megabytes] = opts.quick ? [30, 1] : [100, 1];
  try {
    const store = new ConversationStore(folder);
    await writeConversations(store, folder, count, megabytes);
    // The baseline: read and validate every line of every file, as a full load does.
    const fullParse = await time(async () => {
      for (const name of await readdir(folder)) conversationTitle(parseStreamText(await readFile(join(folder, name), 'utf8')).events);
    });
    const listing = new ConversationStore(folder);
    const first = await time(() => listing.list());
    const again = await time(() => listing.list());
    return {
      title: `Chat history list (${count} conversations of ~${megabytes} MB each)`,
      columns: ['how titles are found', 'ms'],
      rows: [
        ['every file parsed and validated whole (baseline)', fullParse.toFixed(0)],
        ['Quiver, first listing: message and rename lines only', first.toFixed(0)],
        ['Quiver, listing again, files unchanged', again.toFixed(1)],
      ],
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
