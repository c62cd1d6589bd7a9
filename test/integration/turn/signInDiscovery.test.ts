import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyFromStream } from '../../../src/core/chat';
import type { HistoryItem } from '../../../src/core/chat/items';
import { SETTINGS } from '../../../src/core/settings/registry';
import { ConversationStore } from '../../../src/core/stream/conversationStore';
import { createSearchBuiltins } from '../../../src/core/turn/searchBuiltins';
import { ConversationSession } from '../../../src/core/turn/session';
import type { McpManager } from '../../../src/mcp/mcpManager';
import { SharedRefreshLock } from '../../../src/mcp/oauth/refreshLock';
import { MemorySecretStore } from '../../../src/mcp/oauth/secretStore';
import { AnthropicModelClient } from '../../../src/providers/anthropic/anthropicModelClient';
import { reply, ScriptedMessagesApi, text, toolUse, type MessagesBody } from '../../fixtures/scriptedMessagesApi';
import { disposeAll, fixture, manager, nodeServer, USER } from '../mcp/helpers';
import { ScriptedBrowser, startFixture, stopFixture, type OAuthFixture } from '../mcp/oauthFixture';
import { DEFAULT_RESULTS, lastToolResults, ScriptedApprover, signal } from './harness';

const SERVER = 'guarded';

interface Answer {
  readonly results: readonly { readonly name: string; readonly status: string }[];
  readonly sign_in_required?: readonly { readonly name: string; readonly server: string }[];
  readonly waiting_for_sign_in?: readonly string[];
  readonly note: string;
}

const answerIn = (body: MessagesBody | undefined): Answer => JSON.parse(lastToolResults(body)[0]?.text ?? '{}') as Answer;
const systemOf = (body: MessagesBody | undefined): string => (body?.system ?? []).map((b) => b.text).join('');
/** The texts of the system messages a request appends (tool changes, a new catalogue). */
const systemMessages = (body: MessagesBody | undefined): string[] =>
  (body?.messages ?? []).filter((m) => m.role === 'system').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text ?? ''));

/** Issue 30, item 2: a server waiting for sign-in is named to the model (index and search) and on the search card. */
describe('a server waiting for sign-in, against the OAuth fixture', function () {
  this.timeout(60_000);
  let oauth: OAuthFixture | undefined;
  let folder: string;
  let m: McpManager;

  beforeEach(async () => {
    oauth = await startFixture();
    folder = await mkdtemp(join(tmpdir(), 'quiver-signin-turn-'));
    const signIn = { browser: new ScriptedBrowser(), store: new MemorySecretStore(), lock: new SharedRefreshLock(undefined), callbackTimeoutMs: 20_000, clientVersion: 'test' };
    m = manager({ startupTimeoutMs: 20_000, signIn, catalogueCacheDir: join(folder, 'catalogues') }).manager;
    m.applyConfig([
      { transport: 'http', name: SERVER, url: oauth.mcpUrl, headers: {}, source: USER },
      nodeServer('notes', fixture('named-tools-server.mjs'), ['notes_search', 'notes_append']),
    ]);
    await m.whenIdle();
  });

  afterEach(async () => {
    await disposeAll();
    await stopFixture(oauth);
    oauth = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('the search answer, the system prompt (by appended changes only) and the card name it, before sign-in, once signed in, and after Sign Out', async () => {
    assert.equal(m.status(SERVER)?.state, 'signin');
    const api = await ScriptedMessagesApi.start([
      reply(toolUse('s1', 'search_tools', { query: 'whoami' })),
      reply(text('You need to sign in to guarded first.')),
      reply(toolUse('s2', 'search_tools', { query: 'whoami' })),
      reply(text('Loaded.')),
      reply(toolUse('s3', 'search_tools', { query: 'whoami' })),
      reply(text('Signed out again.')),
    ]);
    try {
      const store = new ConversationStore(folder);
      const log = await store.create();
      const session = new ConversationSession({
        log, source: m, builtins: createSearchBuiltins(), approver: new ScriptedApprover(), observer: {}, results: store.resultsOf(log.id),
        model: new AnthropicModelClient({ apiKey: 'k', baseURL: api.url, maxRetries: 0 }),
        settings: () => ({ tools: { '*': { enable: 'discoverable' } }, model: SETTINGS.model.fallback, maxTokens: 0, thinking: 'adaptive', effort: undefined, maxCyclesPerTurn: 5, searchLoadBudget: SETTINGS.searchMaxLoadTokens.fallback, results: DEFAULT_RESULTS, contextManagement: SETTINGS.contextManagement.fallback, cacheTtl: SETTINGS.cacheTtl.fallback }),
      });

      // Never signed in: its tools are not known, and the model is told so, and how to sign in.
      await session.send('Who am I on guarded?', signal());
      const system = systemOf(api.requests[0]?.body);
      assert.match(system, /## Servers waiting for sign-in\nTheir tools cannot be searched for, loaded or called until the user signs in\. .*"Quiver: Sign In to MCP Server…"\.\n- guarded \(its tools are not known until the user signs in\)$/);
      const before = answerIn(api.requests[1]?.body);
      assert.deepEqual(before.results, []);
      assert.deepEqual(before.waiting_for_sign_in, [SERVER]);
      assert.match(before.note, /^No tool you can load now matched\. Under "waiting_for_sign_in": MCP server "guarded", which waits for the user to sign in; its tools are not known until then/);

      // Signed in: the next request keeps the first system prompt's bytes and appends the new catalogue.
      await m.signIn(SERVER);
      assert.equal(m.status(SERVER)?.state, 'running');
      await session.send('I signed in. Try again.', signal());
      assert.equal(systemOf(api.requests[2]?.body), system, 'the system prompt is sent as first sent');
      const signedIn = systemMessages(api.requests[2]?.body).find((t) => t.startsWith('The tools installed in the editor changed.')) ?? '';
      assert.match(signedIn, /- guarded \(3 tools\)/);
      assert.doesNotMatch(signedIn, /Servers waiting for sign-in/);
      assert.deepEqual(answerIn(api.requests[3]?.body).results.map((r) => [r.name, r.status]), [['guarded__whoami', 'usable']]);

      // Signed out: its last listing is named behind the sign-in, with what the user must do.
      await m.signOut(SERVER);
      await session.send('And now?', signal());
      assert.equal(systemOf(api.requests[4]?.body), system);
      const signedOut = systemMessages(api.requests[4]?.body).find((t) => t.includes('Servers waiting for sign-in')) ?? '';
      assert.match(signedOut, /\n- guarded \(3 tools\): /);
      const after = answerIn(api.requests[5]?.body);
      assert.deepEqual(after.results, []);
      assert.deepEqual(after.sign_in_required?.map((t) => [t.name, t.server]), [['guarded__whoami', SERVER]]);
      assert.match(after.note, /Tools under "sign_in_required" are on MCP server "guarded", which waits for the user to sign in: they cannot be loaded or called until then\. Tell the user to sign in/);

      const cards = historyFromStream(log.events(), false).items.filter((i): i is Extract<HistoryItem, { kind: 'search' }> => i.kind === 'search');
      const done = cards.map((c) => (c.outcome.status === 'done' ? c.outcome : undefined));
      assert.deepEqual(done[0], { status: 'done', found: [], waitingForSignIn: [SERVER] }, 'the first card says what it could not search');
      assert.deepEqual(done[2]?.found.map((f) => [f.name, f.status]), [['guarded__whoami', 'sign in required']]);
      assert.deepEqual(api.requests.map((r) => r.rejected), api.requests.map(() => undefined), 'the API accepts every request');
    } finally {
      await api.close();
    }
  });
});
