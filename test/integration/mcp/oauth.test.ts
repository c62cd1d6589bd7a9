import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswerElicitation, ElicitationAnswer, ElicitationRequest } from '../../../src/core/elicitation/elicitation';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import type { McpManagerOptions } from '../../../src/mcp/managerOptions';
import type { McpManager } from '../../../src/mcp/mcpManager';
import { SharedRefreshLock, type RefreshLock } from '../../../src/mcp/oauth/refreshLock';
import { MemorySecretStore } from '../../../src/mcp/oauth/secretStore';
import { credentialsKey, readCredentials, type ServerCredentials } from '../../../src/mcp/oauth/serverCredentials';
import type { RemoteServerConfig } from '../../../src/mcp/serverConfig';
import { disposeAll, manager, signal, textOf, USER, waitFor, type CapturedLog } from './helpers';
import { ScriptedBrowser, startFixture, stopFixture, type OAuthFixture } from './oauthFixture';

const SERVER = 'guarded';
const WHOAMI = `${SERVER}__whoami`;

interface FixtureStats {
  readonly registrations: number;
  readonly authorizations: number;
  readonly codeExchanges: number;
  readonly refreshes: number;
  readonly refreshReuse: number;
  readonly mcpRequests: number;
  readonly sessionsEnded: number;
}

async function stats(server: OAuthFixture): Promise<FixtureStats> {
  const response = await fetch(`${server.origin}/admin/stats`);
  return (await response.json()) as FixtureStats;
}

async function admin(server: OAuthFixture, action: 'revoke' | 'expire'): Promise<void> {
  const response = await fetch(`${server.origin}/admin/${action}`, { method: 'POST' });
  assert.equal(response.status, 200);
}

function remoteConfig(server: OAuthFixture): RemoteServerConfig {
  return { transport: 'http', name: SERVER, url: server.mcpUrl, headers: {}, source: USER };
}

interface WindowOptions {
  readonly browser?: ScriptedBrowser;
  readonly store?: MemorySecretStore;
  readonly lock?: RefreshLock;
  readonly callbackTimeoutMs?: number;
  readonly extra?: Partial<McpManagerOptions>;
}

interface EditorWindow {
  readonly manager: McpManager;
  readonly log: CapturedLog;
  readonly browser: ScriptedBrowser;
  readonly store: MemorySecretStore;
}

/** One editor window: a manager (not started yet) and what its sign-in uses. */
function newWindow(options: WindowOptions = {}): EditorWindow {
  const browser = options.browser ?? new ScriptedBrowser();
  const store = options.store ?? new MemorySecretStore();
  const lock = options.lock ?? new SharedRefreshLock(undefined);
  const signIn = { browser, store, lock, callbackTimeoutMs: options.callbackTimeoutMs ?? 20_000, clientVersion: 'test' };
  const { manager: m, log } = manager({ startupTimeoutMs: 20_000, signIn, ...options.extra });
  return { manager: m, log, browser, store };
}

/** A window with the fixture configured, started in the background as at the editor's startup. */
async function openWindow(server: OAuthFixture, options: WindowOptions = {}): Promise<EditorWindow> {
  const editor = newWindow(options);
  editor.manager.applyConfig([remoteConfig(server)]);
  await editor.manager.whenIdle();
  return editor;
}

async function signedInWindow(server: OAuthFixture, options: WindowOptions = {}): Promise<EditorWindow> {
  const editor = await openWindow(server, options);
  await editor.manager.signIn(SERVER);
  assertRunning(editor.manager);
  return editor;
}

function assertRunning(m: McpManager): void {
  const status = m.status(SERVER);
  assert.equal(status?.state, 'running', status?.reason);
}

async function storedTokens(store: MemorySecretStore, server: OAuthFixture): Promise<ServerCredentials['tokens']> {
  return (await readCredentials(store, server.mcpUrl)).tokens;
}

/** A second store holding the same secrets: windows that do not share one. */
async function copyOf(store: MemorySecretStore): Promise<MemorySecretStore> {
  const copy = new MemorySecretStore();
  for (const key of store.keys()) await copy.store(key, (await store.get(key)) ?? '');
  return copy;
}

async function whoami(m: McpManager): Promise<string> {
  const result = await m.call(WHOAMI, {}, signal());
  assert.equal(result.isError, false, textOf(result));
  return textOf(result);
}

async function filesUnder(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(names.filter((d) => d.isFile()).map((d) => readFile(join(d.parentPath, d.name), 'utf8')));
}

describe('MCP sign-in (OAuth 2.1) against the OAuth fixture', function () {
  this.timeout(60_000);
  let server: OAuthFixture | undefined;
  const temps: string[] = [];

  beforeEach(async () => {
    server = await startFixture();
  });

  afterEach(async () => {
    // Managers first: their shutdown talks to the fixture (DELETE of the session).
    await disposeAll();
    await stopFixture(server);
    server = undefined;
    await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function tempDir(prefix: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    temps.push(dir);
    return dir;
  }

  function fixtureServer(): OAuthFixture {
    assert.ok(server !== undefined, 'the fixture is started before each test');
    return server;
  }

  describe('starting and signing in', () => {
    it('a server that needs OAuth, started in the background, waits for Sign In without opening the browser', async () => {
      const s = fixtureServer();
      const { manager: m, browser } = newWindow();
      const states: string[] = [];
      m.onDidChangeStatus((status) => states.push(status.state));
      m.applyConfig([remoteConfig(s)]);
      await m.whenIdle();

      const status = m.status(SERVER);
      assert.equal(status?.state, 'signin', status?.reason);
      assert.match(status?.reason ?? '', /Sign In/);
      assert.ok(!states.includes('failed'), states.join(' → '));
      assert.equal(status?.signedIn, false);
      assert.deepEqual(browser.opened, []);
      const after = await stats(s);
      assert.ok(after.mcpRequests >= 1, 'it asked the server, which answered 401');
      assert.equal(after.authorizations, 0);
    });

    it('Sign In opens the browser once, then the server runs, its tools answer, and no token reaches a log or the catalogue cache', async () => {
      const s = fixtureServer();
      const cacheDir = await tempDir('quiver-oauth-cache-');
      const { manager: m, log, browser, store } = await signedInWindow(s, { extra: { catalogueCacheDir: cacheDir } });

      assert.deepEqual(browser.opened, [{ server: SERVER, reason: 'signIn' }]);
      assert.deepEqual(m.tools().map((t) => t.name).sort(), [`${SERVER}__ask_name`, `${SERVER}__countdown`, WHOAMI]);
      assert.equal(m.status(SERVER)?.signedIn, true);

      assert.deepEqual(store.keys(), [credentialsKey(s.mcpUrl)]);
      assert.ok(store.keys()[0]?.startsWith('quiver.oauth.v1:'));
      const tokens = await storedTokens(store, s);
      assert.ok(tokens?.access_token !== undefined && tokens.refresh_token !== undefined, 'both tokens are stored');
      assert.ok((await store.get(credentialsKey(s.mcpUrl)))?.includes(tokens.access_token));

      const client = (await readCredentials(store, s.mcpUrl)).client?.client_id;
      assert.equal(await whoami(m), `client_id: ${client}`);

      await m.dispose();
      const cached = await filesUnder(cacheDir);
      assert.ok(cached.some((text) => text.includes('whoami')), 'the catalogue was cached');
      for (const secret of [tokens.access_token, tokens.refresh_token]) {
        assert.ok(!log.lines.some((line) => line.includes(secret)), 'a token reached the log');
        assert.ok(!cached.some((text) => text.includes(secret)), 'a token reached the catalogue cache');
      }
    });

    it('a server given a token of the user\'s own (an Authorization header) is not signed in with OAuth: a refused token is reported as the header\'s', async () => {
      const s = fixtureServer();
      const { manager: m, browser } = newWindow();
      m.applyConfig([{ ...remoteConfig(s), headers: { Authorization: 'Bearer not-a-token' } }]);
      await m.whenIdle();
      const status = m.status(SERVER);
      assert.equal(status?.state, 'failed', status?.reason);
      assert.match(status?.reason ?? '', /refused the token in the "Authorization" header \(401 Unauthorized\): check it in user settings/);
      assert.doesNotMatch(status?.reason ?? '', /not-a-token/);
      assert.deepEqual(browser.opened, []);
      assert.equal((await stats(s)).registrations, 0, 'no client was registered');
    });

    it('a second window sharing the secret store (a reload) runs on the stored sign-in without opening the browser', async () => {
      const s = fixtureServer();
      const first = await signedInWindow(s);
      await first.manager.dispose();
      const before = await stats(s);

      const reloaded = await openWindow(s, { store: first.store, browser: first.browser });
      assertRunning(reloaded.manager);
      assert.equal(reloaded.manager.status(SERVER)?.signedIn, true);
      assert.match(await whoami(reloaded.manager), /^client_id: /);
      assert.deepEqual(first.browser.reasons(), ['signIn'], 'only the first window opened it');
      const after = await stats(s);
      assert.equal(after.authorizations, before.authorizations);
      assert.equal(after.registrations, before.registrations);
    });

    it('a window waiting for sign-in starts, without opening anything, once another window signed in (credentialsChanged)', async () => {
      const s = fixtureServer();
      const waiting = await openWindow(s);
      assert.equal(waiting.manager.status(SERVER)?.state, 'signin');
      const other = await signedInWindow(s, { store: waiting.store });
      await waiting.manager.credentialsChanged(s.mcpUrl);
      await waiting.manager.whenIdle();
      assertRunning(waiting.manager);
      assert.deepEqual(waiting.browser.reasons(), [], 'the waiting window opened nothing');
      assert.deepEqual(other.browser.reasons(), ['signIn']);
    });

    it('a server asleep on its cached catalogue whose stored sign-in was revoked signs in at the first call of one of its tools, asking first', async () => {
      const s = fixtureServer();
      const cacheDir = await tempDir('quiver-oauth-idle-');
      const listed = await signedInWindow(s, { extra: { catalogueCacheDir: cacheDir } });
      await listed.manager.dispose();
      await admin(s, 'revoke');
      // A reload: the same keychain (tokens stored, no longer honoured) and catalogue cache: the server sleeps, listed.
      const asleep = newWindow({ store: listed.store, extra: { catalogueCacheDir: cacheDir } });
      asleep.manager.applyConfig([remoteConfig(s)], { off: new Set(), idle: new Set([SERVER]) });
      await asleep.manager.whenIdle();
      assert.equal(asleep.manager.status(SERVER)?.state, 'idle');
      assert.ok(asleep.manager.tools().some((t) => t.name === WHOAMI));
      assert.deepEqual(asleep.browser.reasons(), []);

      assert.match(await whoami(asleep.manager), /^client_id: /);
      assert.deepEqual(asleep.browser.reasons(), ['toolCall'], 'the call asked, with the reason the editor shows the user');
    });

    it('after Sign Out and a reload a server asleep on its cached catalogue waits as Sign in required: its tools are named, not listed, and Sign In runs it', async () => {
      const s = fixtureServer();
      const cacheDir = await tempDir('quiver-oauth-signout-');
      const first = await signedInWindow(s, { extra: { catalogueCacheDir: cacheDir } });
      await first.manager.signOut(SERVER);
      const waiting = first.manager.signInServers();
      assert.deepEqual(waiting.map((w) => [w.server, w.tools.map((t) => t.name).sort()]), [[SERVER, [`${SERVER}__ask_name`, `${SERVER}__countdown`, WHOAMI]]], 'signed out, its last listing is named');
      await first.manager.dispose();

      const reloaded = newWindow({ store: first.store, browser: first.browser, extra: { catalogueCacheDir: cacheDir } });
      reloaded.manager.applyConfig([remoteConfig(s)], { off: new Set(), idle: new Set([SERVER]) });
      await reloaded.manager.whenIdle();
      const status = reloaded.manager.status(SERVER);
      assert.equal(status?.state, 'signin', status?.reason);
      assert.equal(status?.reason, 'signed out: Sign In to use this server again.');
      assert.deepEqual(reloaded.manager.tools(), [], 'nothing behind the sign-in is callable');
      assert.deepEqual(reloaded.manager.signInServers().map((w) => w.tools.length), [3]);
      assert.deepEqual(first.browser.reasons(), ['signIn'], 'the reload opened nothing');

      await reloaded.manager.signIn(SERVER);
      assertRunning(reloaded.manager);
      assert.deepEqual(reloaded.manager.signInServers(), []);
      assert.match(await whoami(reloaded.manager), /^client_id: /);
    });

    it('an abandoned sign-in (the browser never comes back) settles as Sign in required and stores no tokens', async () => {
      const s = fixtureServer();
      const { manager: m, browser, store } = await openWindow(s, { browser: new ScriptedBrowser('abandon'), callbackTimeoutMs: 500 });
      await m.signIn(SERVER);

      const status = m.status(SERVER);
      assert.equal(status?.state, 'signin', status?.reason);
      assert.match(status?.reason ?? '', /browser did not come back/);
      assert.deepEqual(browser.reasons(), ['signIn']);
      const credentials = await readCredentials(store, s.mcpUrl);
      assert.equal(credentials.tokens, undefined);
      // Registration happens before the page opens, so it stays for the next attempt.
      assert.ok(credentials.client?.client_id !== undefined, 'the registration is kept');
      assert.equal((await stats(s)).codeExchanges, 0);
    });

    it('Sign Out forgets the sign-in (the server waits for Sign In again), and signing in again works', async () => {
      const s = fixtureServer();
      const { manager: m, browser, store } = await signedInWindow(s);
      await m.signOut(SERVER);

      const status = m.status(SERVER);
      assert.equal(status?.state, 'signin', status?.reason);
      assert.equal(status?.signedIn, false);
      assert.deepEqual(store.keys(), []);
      assert.deepEqual(m.tools(), []);

      await m.signIn(SERVER);
      assertRunning(m);
      assert.equal(m.status(SERVER)?.signedIn, true);
      assert.deepEqual(browser.reasons(), ['signIn', 'signIn']);
      assert.match(await whoami(m), /^client_id: /);
    });
  });

  describe('expired and revoked tokens', () => {
    it('an expired access token is refreshed once at the next call, without the browser', async () => {
      const s = fixtureServer();
      const { manager: m, browser, store } = await signedInWindow(s);
      const old = await storedTokens(store, s);
      const before = await stats(s);
      await admin(s, 'expire');

      assert.match(await whoami(m), /^client_id: /);
      const after = await stats(s);
      assert.equal(after.refreshes, before.refreshes + 1);
      assert.equal(after.authorizations, before.authorizations);
      assert.deepEqual(browser.reasons(), ['signIn']);
      assert.notEqual((await storedTokens(store, s))?.access_token, old?.access_token, 'the new token was stored');
    });

    /**
     * Two windows (managers), both signed in, then the access token expired. `shared`: one secret
     * store and one lock folder, with a lock instance each as two processes would have. Otherwise
     * each has its own copy of the same tokens and a lock of its own.
     */
    async function twoWindowsAfterExpiry(s: OAuthFixture, shared: boolean): Promise<{ windows: readonly EditorWindow[]; browser: ScriptedBrowser; before: FixtureStats }> {
      const lockDir = await tempDir('quiver-oauth-lock-');
      const lock = (): RefreshLock => new SharedRefreshLock(shared ? lockDir : undefined);
      const browser = new ScriptedBrowser();
      const a = await signedInWindow(s, { browser, lock: lock() });
      // A window sent to sign in is declined, so that a lost race shows as the request, not as a second sign-in.
      browser.behaviour = 'decline';
      const b = await openWindow(s, { browser, store: shared ? a.store : await copyOf(a.store), lock: lock() });
      assertRunning(b.manager);
      const before = await stats(s);
      await admin(s, 'expire');
      return { windows: [a, b], browser, before };
    }

    function callAtOnce(windows: readonly EditorWindow[], perWindow: number): Promise<ToolCallResult[]> {
      return Promise.all(windows.flatMap((w) => Array.from({ length: perWindow }, () => w.manager.call(WHOAMI, {}, signal()))));
    }

    it('two windows sharing the store and the lock folder, calling at once after expiry, never present a rotated refresh token', async () => {
      const s = fixtureServer();
      const { windows, browser, before } = await twoWindowsAfterExpiry(s, true);
      for (const result of await callAtOnce(windows, 1)) assert.equal(result.isError, false, textOf(result));
      const after = await stats(s);
      assert.equal(after.refreshReuse, 0);
      assert.deepEqual(browser.reasons(), ['signIn']);
      // A window whose 401 comes back after the other stored new tokens takes those (it does not refresh them again).
      assert.equal(after.refreshes, before.refreshes + 1);
    });

    // The SDK transport's per-connection "401 after successful authentication" guard would fail a
    // concurrent call whose 401 lands after another call's refresh; the connection retries it on the new token.
    it('two windows sharing the store and the lock folder, several calls each at once after expiry: all succeed on one refresh', async () => {
      const s = fixtureServer();
      const { windows, browser, before } = await twoWindowsAfterExpiry(s, true);
      for (const result of await callAtOnce(windows, 4)) assert.equal(result.isError, false, textOf(result));
      const after = await stats(s);
      assert.equal(after.refreshes, before.refreshes + 1);
      assert.equal(after.refreshReuse, 0);
      assert.deepEqual(browser.reasons(), ['signIn']);
    });

    it('without the shared store and lock the same race presents a rotated refresh token (the contrast)', async () => {
      const s = fixtureServer();
      const { windows, browser } = await twoWindowsAfterExpiry(s, false);
      const results = await callAtOnce(windows, 1);
      const after = await stats(s);
      // Whichever window presents the refresh token second presents a used one, whatever the timing.
      assert.ok(after.refreshReuse >= 1, `refreshReuse ${after.refreshReuse}`);
      assert.deepEqual(browser.reasons(), ['signIn', 'toolCall'], 'the losing window lost its sign-in');
      assert.equal(results.filter((r) => r.isError).length, 1);
    });

    it('after revocation a call asks the browser; declined, the call fails saying so and no tokens are kept', async () => {
      const s = fixtureServer();
      const { manager: m, browser, store } = await signedInWindow(s);
      await admin(s, 'revoke');
      browser.behaviour = 'decline';

      const result = await m.call(WHOAMI, {}, signal());
      assert.equal(result.isError, true);
      assert.match(textOf(result), /sign-in/i);
      assert.deepEqual(browser.reasons(), ['signIn', 'toolCall']);
      assert.equal(await storedTokens(store, s), undefined);
    });

    it('after revocation, calls at once share one sign-in: the browser opens once and every call runs', async () => {
      const s = fixtureServer();
      const { manager: m, browser } = await signedInWindow(s);
      const before = await stats(s);
      await admin(s, 'revoke');

      const results = await Promise.all([1, 2, 3].map(() => m.call(WHOAMI, {}, signal())));
      for (const result of results) assert.equal(result.isError, false, textOf(result));
      assert.deepEqual(browser.reasons(), ['signIn', 'toolCall']);
      const after = await stats(s);
      assert.equal(after.authorizations, before.authorizations + 1);
      assert.equal(after.codeExchanges, before.codeExchanges + 1);
    });

    it('stopping a server during its sign-in ends the sign-in: nothing is exchanged afterwards and the port is free', async () => {
      const s = fixtureServer();
      const browser = new ScriptedBrowser('abandon');
      const { manager: m } = await openWindow(s, { browser });
      const signingIn = m.signIn(SERVER);
      await waitFor('the sign-in page', () => browser.opened.length === 1);
      const before = await stats(s);
      await m.dispose();
      await signingIn;
      assert.equal((await stats(s)).codeExchanges, before.codeExchanges);
      const probe = createServer();
      await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(33418, '127.0.0.1', () => resolve()));
      await new Promise((r) => probe.close(r));
    });

    it('after revocation a call asks the browser; accepted, the call runs once signed in again', async () => {
      const s = fixtureServer();
      const { manager: m, browser } = await signedInWindow(s);
      const before = await stats(s);
      await admin(s, 'revoke');

      assert.match(await whoami(m), /^client_id: /);
      assert.deepEqual(browser.reasons(), ['signIn', 'toolCall']);
      assert.equal((await stats(s)).codeExchanges, before.codeExchanges + 1);
    });
  });

  describe('elicitation, progress and shutdown', () => {
    const ASK_NAME = `${SERVER}__ask_name`;
    const ADA_WITH_DEFAULTS = { name: 'Ada', age: 30, newsletter: false, color: 'green' };

    /** An answerer that records what it was asked and answers `answer`. */
    function answerer(answer: ElicitationAnswer): { asked: ElicitationRequest[]; answer: AnswerElicitation } {
      const asked: ElicitationRequest[] = [];
      return {
        asked,
        answer: (request) => {
          asked.push(request);
          return Promise.resolve(answer);
        },
      };
    }

    /** A signed-in window whose manager answers questions no call takes by cancelling (the capability needs an answerer). */
    async function elicitingWindow(s: OAuthFixture): Promise<{ manager: McpManager; fallback: ElicitationRequest[] }> {
      const fallback = answerer({ action: 'cancel' });
      const { manager: m } = await signedInWindow(s, { extra: { elicitation: fallback.answer } });
      return { manager: m, fallback: fallback.asked };
    }

    function acceptedContent(result: ToolCallResult): unknown {
      const text = textOf(result);
      assert.match(text, /^accepted: /);
      return JSON.parse(text.slice('accepted: '.length));
    }

    it("a call's onElicitation answers the server's form; accepted, the schema's defaults fill the rest", async () => {
      const s = fixtureServer();
      const { manager: m, fallback } = await elicitingWindow(s);
      const hook = answerer({ action: 'accept', content: { name: 'Ada' } });
      const result = await m.call(ASK_NAME, {}, signal(), { onElicitation: hook.answer });

      assert.deepEqual(acceptedContent(result), ADA_WITH_DEFAULTS);
      assert.deepEqual(fallback, [], 'the call that asked answered, not the manager');
      assert.equal(hook.asked.length, 1);
      const request = hook.asked[0];
      assert.ok(request?.mode === 'form');
      assert.equal(request.server, SERVER);
      assert.equal(request.message, 'Tell the fixture about yourself');
      assert.deepEqual(
        request.fields.map((f) => ({ key: f.key, kind: f.kind, required: f.required, default: f.default })),
        [
          { key: 'name', kind: 'text', required: true, default: undefined },
          { key: 'age', kind: 'number', required: false, default: 30 },
          { key: 'newsletter', kind: 'boolean', required: false, default: false },
          { key: 'color', kind: 'choice', required: false, default: 'green' },
        ],
      );
      const color = request.fields.find((f) => f.key === 'color');
      assert.deepEqual(color?.kind === 'choice' ? color.options.map((o) => o.value) : [], ['red', 'green', 'blue']);
    });

    it('a declined form reaches the tool as declined', async () => {
      const s = fixtureServer();
      const { manager: m } = await elicitingWindow(s);
      const result = await m.call(ASK_NAME, {}, signal(), { onElicitation: answerer({ action: 'decline' }).answer });
      assert.equal(textOf(result), 'declined');
    });

    it("without hooks the manager's elicitation answerer is asked", async () => {
      const s = fixtureServer();
      const host = answerer({ action: 'accept', content: { name: 'Ada' } });
      const { manager: m } = await signedInWindow(s, { extra: { elicitation: host.answer } });
      assert.deepEqual(acceptedContent(await m.call(ASK_NAME, {}, signal())), ADA_WITH_DEFAULTS);
      assert.equal(host.asked.length, 1);
    });

    it("without the manager's answerer elicitation is not declared: a call's hook is not asked and the tool says so", async () => {
      const s = fixtureServer();
      const { manager: m } = await signedInWindow(s);
      const hook = answerer({ action: 'accept', content: { name: 'Ada' } });
      const result = await m.call(ASK_NAME, {}, signal(), { onElicitation: hook.answer });
      assert.match(textOf(result), /does not support form elicitation/);
      assert.deepEqual(hook.asked, []);
    });

    it('progress of a call reaches onProgress, one update per step', async () => {
      const s = fixtureServer();
      const { manager: m } = await signedInWindow(s);
      const updates: { progress: number; total: number | undefined }[] = [];
      const result = await m.call(`${SERVER}__countdown`, { steps: 3 }, signal(), { onProgress: (p) => updates.push({ progress: p.progress, total: p.total }) });
      assert.equal(textOf(result), 'done');
      assert.deepEqual(updates, [
        { progress: 1, total: 3 },
        { progress: 2, total: 3 },
        { progress: 3, total: 3 },
      ]);
    });

    it('aborting a call mid-countdown rejects it, long before the countdown would end, and the server stays usable', async () => {
      const s = fixtureServer();
      const { manager: m } = await signedInWindow(s);
      const controller = new AbortController();
      const steps = 500;
      let updates = 0;
      const call = m.call(`${SERVER}__countdown`, { steps }, controller.signal, {
        onProgress: () => {
          updates++;
          if (updates === 2) controller.abort();
        },
      });
      await assert.rejects(call, (error: Error) => error.name === 'AbortError');
      assert.ok(updates >= 2 && updates < steps, `${updates} updates`);
      assert.match(await whoami(m), /^client_id: /);
    });

    it('dispose ends the MCP session with DELETE', async () => {
      const s = fixtureServer();
      const { manager: m } = await signedInWindow(s);
      assert.equal((await stats(s)).sessionsEnded, 0);
      await m.dispose();
      assert.equal((await stats(s)).sessionsEnded, 1);
      assert.equal(m.status(SERVER)?.state, 'stopped');
    });
  });
});
