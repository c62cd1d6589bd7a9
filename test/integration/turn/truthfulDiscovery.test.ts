import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyFromStream } from '../../../src/core/chat';
import { SETTINGS } from '../../../src/core/settings/registry';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import type { StreamEvent } from '../../../src/core/stream/events';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';
import { ConversationSession } from '../../../src/core/turn/session';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { reply, ScriptedMessagesApi, text, toolUse, type MessagesBody, type ScriptStep } from '../../fixtures/scriptedMessagesApi';
import { DEFAULT_RESULTS, harness, lastToolResults, MemoryToolSource, ScriptedApprover, signal, toolNames, type FakeServer, type Harness } from './harness';

/** Issue 30: a search tells the model what it found, loaded or not; a stopped call says it ran. */
describe('discovery that tells the truth', function () {
  this.timeout(20_000);

  /** A session wired to the real ranker (src/core/search), as searchBuiltins.test.ts does. */
  async function realSearch(script: readonly ScriptStep[], servers: Record<string, FakeServer>, tools: unknown) {
    const api = await ScriptedMessagesApi.start(script);
    const folder = await mkdtemp(join(tmpdir(), 'quiver-truth-'));
    const store = new ConversationStore(folder);
    const log = await store.create();
    const session = new ConversationSession({
      log, source: new MemoryToolSource(servers), builtins: createSearchBuiltins(), approver: new ScriptedApprover(), observer: {}, results: store.resultsOf(log.id),
      model: new AnthropicModelClient({ apiKey: 'k', baseURL: api.url, maxRetries: 0 }),
      settings: () => ({ tools, model: SETTINGS.model.fallback, maxTokens: 0, thinking: 'adaptive', effort: undefined, maxCyclesPerTurn: 5, searchLoadBudget: SETTINGS.searchMaxLoadTokens.fallback, results: DEFAULT_RESULTS, contextManagement: SETTINGS.contextManagement.fallback, cacheTtl: SETTINGS.cacheTtl.fallback }),
    });
    return {
      api, log, session,
      close: async () => {
        await api.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  }

  const fixture: Record<string, FakeServer> = {
    fixture: {
      running: true,
      tools: [
        { name: 'whoami', description: 'Report which user the server runs as.' },
        { name: 'add', description: 'Add two numbers together.' },
        { name: 'echo', description: 'Send a message back unchanged.' },
      ],
    },
  };
  const searchResults = (events: readonly StreamEvent[]) => events.filter((e): e is Extract<StreamEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.name === 'search_tools');

  it('a search matching only a tool already loaded names it as loaded and callable: no promotion, no delta, and the card agrees', async () => {
    const t = await realSearch(
      [reply(toolUse('s1', 'search_tools', { query: 'whoami' })), reply(text('ok'))],
      fixture,
      { '*': { enable: 'discoverable' }, fixture__whoami: { enable: 'on' } },
    );
    try {
      await t.session.send('who are you running as?', signal());
      const [result] = lastToolResults(t.api.requests[1]?.body);
      assert.equal(result?.isError, false);
      assert.deepEqual(result?.references, [], 'nothing loaded by reference');
      assert.equal(
        result?.text,
        '{"results":[],"already_loaded":[{"name":"fixture__whoami","summary":"Report which user the server runs as."}],"total":0,"note":"No tool that is not loaded yet matched. Tools under \\"already_loaded\\" are loaded already: call them directly."}',
      );
      const events = t.log.events();
      assert.equal(events.filter((e) => e.type === 'config_delta' && e.source === 'promotion').length, 0, 'no promotion delta');
      const [recorded] = searchResults(events);
      assert.deepEqual([recorded?.found, recorded?.alreadyLoaded, recorded?.notLoaded], [[], ['fixture__whoami'], undefined]);
      assert.deepEqual(toolNames(t.api.requests[1]?.body), toolNames(t.api.requests[0]?.body), 'the tools sent are unchanged');
      const card = historyFromStream(events, false).items.find((i) => i.kind === 'search');
      assert.deepEqual(card?.kind === 'search' ? card.outcome : null, { status: 'done', found: [{ name: 'fixture__whoami', status: 'already on', tokens: null }] });
    } finally {
      await t.close();
    }
  });

  it('a search with nothing matched and nothing excluded still says no tools matched', async () => {
    const t = await realSearch(
      [reply(toolUse('s1', 'search_tools', { query: 'kubernetes pods' })), reply(text('none'))],
      fixture,
      { '*': { enable: 'discoverable' }, fixture__whoami: { enable: 'on' } },
    );
    try {
      await t.session.send('list the pods', signal());
      const [result] = lastToolResults(t.api.requests[1]?.body);
      assert.equal(result?.text, '{"results":[],"total":0,"note":"No tools matched, and none was left out: every tool you can load was searched. Try other keywords (a verb and an object, e.g. \\"create issue\\")."}');
      const [recorded] = searchResults(t.log.events());
      assert.deepEqual([recorded?.found, 'alreadyLoaded' in (recorded ?? {})], [[], false]);
      const card = historyFromStream(t.log.events(), false).items.find((i) => i.kind === 'search');
      assert.deepEqual(card?.kind === 'search' ? card.outcome : null, { status: 'done', found: [] });
    } finally {
      await t.close();
    }
  });
});

describe('stopping a call while it runs', function () {
  this.timeout(20_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  /** Every tool_result the request carries for `id`, as the model reads it. */
  const resultFor = (body: MessagesBody | undefined, id: string): string[] =>
    (body?.messages ?? []).flatMap((m) => (m.role === 'user' ? m.content : [])).filter((b) => b.type === 'tool_result' && b.tool_use_id === id).map((b) => (b.content ?? []).map((c) => c.text ?? '').join(''));

  it('a call stopped while it was running is recorded as stopped, not as not run, and the model is told it may have had effects', async () => {
    const controller = new AbortController();
    h = await harness({
      servers: {
        fs: {
          running: true,
          tools: [{
            name: 'copy_tree',
            // A long operation that honours the signal: it is under way when the user stops the turn.
            handler: (_args, s) => new Promise((_resolve, reject) => {
              s.addEventListener('abort', () => reject(new Error('aborted')));
              setTimeout(() => controller.abort(), 20);
            }),
          }],
        },
      },
      tools: { '*': { run: 'unattended' } },
      script: [reply(toolUse('a', 'fs__copy_tree', { from: 'src', to: 'dst' })), reply(text('I will check what was copied.'))],
    });
    const first = await h.session.send('copy the tree', controller.signal);
    assert.equal(first.reason, 'cancelled');
    const [stopped] = h.conversation.events().filter((e) => e.type === 'tool_result');
    assert.equal(stopped?.type === 'tool_result' ? stopped.stopped : undefined, true);
    assert.equal(stopped !== undefined && 'notRun' in stopped, false, 'it ran: not recorded as not run');
    assert.equal(stopped?.type === 'tool_result' ? stopped.isError : false, true);
    const told = stopped?.type === 'tool_result' ? (stopped.content[0] as { text: string }).text : '';
    assert.equal(told, 'The call was stopped by the user while it was running; it may have had effects (fs__copy_tree had started, and was stopped before it returned a result). Check the current state before running it again, and do not run it again unless the user asks.');
    const card = historyFromStream(h.conversation.events(), false).items.find((i) => i.kind === 'tool_call');
    assert.equal(card?.kind === 'tool_call' ? card.outcome.status : '', 'stopped');

    await h.session.send('what happened?', signal());
    assert.deepEqual(resultFor(h.api.requests.at(-1)?.body, 'a'), [told], 'the next request tells the model it was stopped while running');
  });
});
