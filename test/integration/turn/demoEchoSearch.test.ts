import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'jsonc-parser';
import { historyFromStream } from '../../../src/core/chat';
import { SETTINGS } from '../../../src/core/settings/registry';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';
import { ConversationSession } from '../../../src/core/turn/session';
import type { McpManager } from '../../../src/mcp/mcpManager';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { reply, ScriptedMessagesApi, text, toolUse, type MessagesBody } from '../../fixtures/scriptedMessagesApi';
import { disposeAll, fixture, manager, nodeServer, npmServer } from '../mcp/helpers';
import { DEFAULT_RESULTS, lastToolResults, offeredIn, ScriptedApprover, signal } from './harness';

const root = resolve(__dirname, '../../../..');
/** The bench catalogues beside the repository, as CI lays them out (absent in a bare clone). */
const benchCatalogs = resolve(root, '..', 'shared', 'bench', 'catalogs');
// The demo's servers that are not in node_modules, served from their harvested catalogues.
const HARVESTED = { thinking: 'modelcontextprotocol__server-sequential-thinking', git: 'cyanheads__git-mcp-server', chart: 'antv__mcp-server-chart' };
// What a model writes when asked to echo something: the newcomer's search in issue 22 loaded
// git__git_tag, git__git_merge and three chart generators beside the echo tool.
const ECHO_QUERY = 'echo back a message';

interface SearchAnswer {
  readonly results: readonly { readonly name: string; readonly status: string }[];
  readonly not_loaded?: readonly { readonly name: string }[];
  readonly already_loaded?: readonly { readonly name: string }[];
}
const answerIn = (body: MessagesBody | undefined): SearchAnswer => JSON.parse(lastToolResults(body)[0]?.text ?? '{}') as SearchAnswer;
const removedIn = (body: MessagesBody | undefined): string[] =>
  (body?.messages ?? []).flatMap((m) => m.content.filter((b) => b.type === 'tool_removal').map((b) => String((b['tool'] as { name?: string } | undefined)?.name)));

describe('the demo workspace: a search for the echo tool', function () {
  this.timeout(60_000);
  let m: McpManager;
  let folder: string;
  let tools: unknown;

  before(async function () {
    if (!existsSync(benchCatalogs)) this.skip();
    folder = await mkdtemp(join(tmpdir(), 'quiver-demo-'));
    const settings = parse(readFileSync(resolve(root, 'demo', '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    tools = settings['quiver.tools'];
    m = manager().manager;
    m.applyConfig([
      nodeServer('everything', npmServer('everything')),
      nodeServer('filesystem', npmServer('filesystem'), [folder]),
      nodeServer('memory', npmServer('memory'), [], { env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } }),
      ...Object.entries(HARVESTED).map(([name, file]) => nodeServer(name, fixture('catalogue-server.mjs'), [join(benchCatalogs, `${file}.json`)])),
    ]);
    await m.whenIdle();
  });

  after(async () => {
    await disposeAll();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('loads only the echo tool and names the rest; Unload withdraws it at the next request', async () => {
    assert.ok(m.tools().length > 80, `the demo's six servers list their tools (${m.tools().length})`);
    const api = await ScriptedMessagesApi.start([
      reply(toolUse('s1', 'search_tools', { query: ECHO_QUERY })),
      reply(toolUse('e1', 'everything__echo', { message: 'hello' })),
      reply(text('It said hello.')),
      reply(text('Unloaded.')),
    ]);
    try {
      const store = new ConversationStore(folder);
      const log = await store.create();
      const session = new ConversationSession({
        log, source: m, builtins: createSearchBuiltins(), approver: new ScriptedApprover(), observer: {}, results: store.resultsOf(log.id),
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: api.url, maxRetries: 0 }),
        settings: () => ({ tools, model: SETTINGS.model.fallback, maxTokens: 0, thinking: 'adaptive', effort: undefined, maxCyclesPerTurn: 5, searchLoadBudget: SETTINGS.searchMaxLoadTokens.fallback, results: DEFAULT_RESULTS, contextManagement: SETTINGS.contextManagement.fallback, cacheTtl: SETTINGS.cacheTtl.fallback }),
      });
      await session.send('Echo "hello" back to me with a tool.', signal());
      const afterSearch = api.requests[1]?.body;
      const answer = answerIn(afterSearch);
      assert.deepEqual(answer.results.map((r) => [r.name, r.status]), [['everything__echo', 'usable']]);
      const named = answer.not_loaded?.map((t) => t.name) ?? [];
      assert.equal(named.length, 9, `the other nine of the ten matches are named: ${named.join(', ')}`);
      assert.ok(named.includes('git__git_tag') && named.includes('git__git_merge'), `the tools issue 22 saw loaded are named, not loaded: ${named.join(', ')}`);
      assert.deepEqual(lastToolResults(afterSearch)[0]?.references, ['everything__echo']);
      assert.deepEqual((afterSearch?.tools ?? []).filter((t) => t.defer_loading === true).map((t) => t.name), ['everything__echo'], 'only echo is added to the tools array');
      assert.match(JSON.stringify(api.requests[2]?.body.messages.at(-1)), /Echo: hello/);

      const card = historyFromStream(log.events(), false).items.find((i) => i.kind === 'search');
      const rows = card?.kind === 'search' && card.outcome.status === 'done' ? card.outcome.found : [];
      // Matches that were on before the search are named as such (issue 30), after the rest.
      const loadedBefore = answer.already_loaded?.map((t) => t.name) ?? [];
      assert.ok(!loadedBefore.includes('everything__echo') && !loadedBefore.some((n) => named.includes(n)), `a tool is in one list only: ${loadedBefore.join(', ')}`);
      assert.deepEqual(rows.map((r) => r.status), ['loaded', ...named.map(() => 'not loaded'), ...loadedBefore.map(() => 'already on')]);
      assert.ok((rows[0]?.tokens ?? 0) > 0, 'the card knows what echo adds to every request');

      // Unload, as the card's button does it: a conversation toggle, withdrawn by the next request.
      const toggled = await session.toggle({ kind: 'named', name: 'everything__echo' }, 'disable');
      assert.deepEqual(toggled.changed, ['everything__echo']);
      await session.send('Thanks.', signal());
      const next = api.requests[3]?.body;
      assert.deepEqual(removedIn(next), ['everything__echo']);
      assert.ok(!offeredIn(next).includes('everything__echo'), 'the request after Unload no longer offers echo');
      const settled = historyFromStream(log.events(), false).items.find((i) => i.kind === 'search');
      assert.equal(settled?.kind === 'search' && settled.outcome.status === 'done' ? settled.outcome.found[0]?.status : undefined, 'unloaded');
      const rejected = api.requests.filter((r) => r.rejected !== undefined);
      assert.deepEqual(rejected.map((r) => r.rejected), [], 'the API accepts every request');
    } finally {
      await api.close();
    }
  });
});
