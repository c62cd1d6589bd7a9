import assert from 'node:assert/strict';
import { MemorySecretStore, readCredentials, refreshingFetch, type RefreshLock, SharedRefreshLock, writeCredentials } from '../../../../src/mcp/oauth';

const serverUrl = 'https://mcp.example.com/mcp';
const tokenEndpoint = 'https://auth.example.com/token';

interface Call {
  readonly url: string | URL;
  readonly init: RequestInit | undefined;
}

/** An inner fetch that records its calls and answers each with `answer()`. */
function fakeFetch(answer: () => Response | Promise<Response>): { fetch: (url: string | URL, init?: RequestInit) => Promise<Response>; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return answer();
    },
  };
}

const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const refreshGrant = (token: string): RequestInit => ({
  method: 'POST',
  body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: 'c' }),
});

/** A lock that records the keys it was asked for. */
class CountingLock implements RefreshLock {
  readonly keys: string[] = [];
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    this.keys.push(key);
    return work();
  }
}

describe('refreshingFetch', () => {
  it('passes a request that is not a refresh grant straight through, outside the lock', async () => {
    const store = new MemorySecretStore();
    const lock = new CountingLock();
    const answer = json({ hello: 'world' });
    const inner = fakeFetch(() => answer);
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock });
    const codeGrant = { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x' }) };
    const stringBody = { method: 'POST', body: 'grant_type=refresh_token&refresh_token=r' };
    assert.equal(await gated(serverUrl), answer);
    assert.equal(await gated(tokenEndpoint, codeGrant), answer);
    assert.equal(await gated(tokenEndpoint, stringBody), answer);
    assert.deepEqual(inner.calls, [
      { url: serverUrl, init: undefined },
      { url: tokenEndpoint, init: codeGrant },
      { url: tokenEndpoint, init: stringBody },
    ]);
    assert.deepEqual(lock.keys, []);
    assert.deepEqual(store.keys(), []);
  });

  it('forwards a refresh grant once and stores the new tokens, stamped, before answering', async () => {
    const store = new MemorySecretStore();
    await writeCredentials(store, serverUrl, {
      client: { client_id: 'c' },
      tokens: { access_token: 'old', token_type: 'Bearer', refresh_token: 'r1', issuer: 'https://auth.example.com' },
      obtainedAt: 1,
    });
    const lock = new CountingLock();
    const inner = fakeFetch(() => json({ access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600 }));
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock, now: () => 50_000 });
    const init = refreshGrant('r1');
    const response = await gated(tokenEndpoint, init);
    // Stored before the response came back: read it before touching the body.
    assert.deepEqual(await readCredentials(store, serverUrl), {
      client: { client_id: 'c' },
      tokens: { access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600, issuer: 'https://auth.example.com' },
      obtainedAt: 50_000,
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600 });
    assert.deepEqual(inner.calls, [{ url: tokenEndpoint, init }]);
    assert.deepEqual(lock.keys, [serverUrl]);
  });

  it('keeps the presented refresh token when the server does not rotate it', async () => {
    const store = new MemorySecretStore();
    const inner = fakeFetch(() => json({ access_token: 'new', token_type: 'Bearer' }));
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock: new SharedRefreshLock(undefined), now: () => 7 });
    await gated(tokenEndpoint, refreshGrant('r1'));
    assert.deepEqual(await readCredentials(store, serverUrl), { tokens: { access_token: 'new', token_type: 'Bearer', refresh_token: 'r1' }, obtainedAt: 7 });
  });

  it('answers from the store, counting expires_in down, when another window already rotated the token', async () => {
    const store = new MemorySecretStore();
    const stored = { access_token: 'theirs', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600, issuer: 'https://auth.example.com' };
    await writeCredentials(store, serverUrl, { tokens: stored, obtainedAt: 100_000 });
    const inner = fakeFetch(() => assert.fail('the rotated refresh token must not be presented again'));
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock: new SharedRefreshLock(undefined), now: () => 100_000 + 600_500 });
    const response = await gated(tokenEndpoint, refreshGrant('r1'));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { access_token: 'theirs', token_type: 'Bearer', refresh_token: 'r2', expires_in: 2999 });
    assert.equal(inner.calls.length, 0);
    assert.deepEqual(await readCredentials(store, serverUrl), { tokens: stored, obtainedAt: 100_000 });
  });

  it('lets two concurrent refreshes of one token reach the server once', async () => {
    const store = new MemorySecretStore();
    await writeCredentials(store, serverUrl, { tokens: { access_token: 'old', token_type: 'Bearer', refresh_token: 'r1', expires_in: 60 }, obtainedAt: 0 });
    let release = (): void => undefined;
    const held = new Promise<void>((r) => (release = r));
    const inner = fakeFetch(async () => {
      await held;
      return json({ access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600 });
    });
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock: new SharedRefreshLock(undefined), now: () => 10_000 });
    const first = gated(tokenEndpoint, refreshGrant('r1'));
    const second = gated(tokenEndpoint, refreshGrant('r1'));
    await new Promise((r) => setImmediate(r));
    assert.equal(inner.calls.length, 1);
    release();
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual(await a.json(), { access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600 });
    assert.deepEqual(await b.json(), { access_token: 'new', token_type: 'Bearer', refresh_token: 'r2', expires_in: 3600 });
    assert.equal(inner.calls.length, 1);
  });

  it('returns an error response unchanged and stores nothing', async () => {
    const store = new MemorySecretStore();
    const before = { tokens: { access_token: 'old', token_type: 'Bearer', refresh_token: 'r1' }, obtainedAt: 3 };
    await writeCredentials(store, serverUrl, before);
    const refused = json({ error: 'invalid_grant' }, 400);
    const inner = fakeFetch(() => refused);
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock: new SharedRefreshLock(undefined) });
    const response = await gated(tokenEndpoint, refreshGrant('r1'));
    assert.equal(response, refused);
    assert.equal(response.bodyUsed, false);
    assert.deepEqual(await response.json(), { error: 'invalid_grant' });
    assert.equal(inner.calls.length, 1);
    assert.deepEqual(await readCredentials(store, serverUrl), before);
  });

  it('after a 401, answers a refresh with tokens stored since the refused one; a refresh before expiry later still goes out', async () => {
    const store = new MemorySecretStore();
    let now = 1_000_000;
    const inner = fakeFetch(() => (calls401 ? new Response('', { status: 401 }) : json({ access_token: 'at3', token_type: 'Bearer', refresh_token: 'rt3', expires_in: 3600 })));
    let calls401 = true;
    const gated = refreshingFetch(inner.fetch, { store, serverUrl, lock: new SharedRefreshLock(undefined), now: () => now });
    assert.equal((await gated(serverUrl, { headers: { Authorization: 'Bearer at1' } })).status, 401);
    // Another window refreshed meanwhile: at2 / rt2 are stored, and this window presents rt2 (it read the store).
    await writeCredentials(store, serverUrl, { tokens: { access_token: 'at2', token_type: 'Bearer', refresh_token: 'rt2', expires_in: 3600 }, obtainedAt: now });
    calls401 = false;
    const answered = (await (await gated(tokenEndpoint, refreshGrant('rt2'))).json()) as { access_token: string };
    assert.equal(answered.access_token, 'at2');
    assert.equal(inner.calls.length, 1, 'not refreshed again');
    // An hour later the stored token is about to expire: the refresh before expiry is sent.
    now += 3_590_000;
    const refreshed = (await (await gated(tokenEndpoint, refreshGrant('rt2'))).json()) as { access_token: string };
    assert.equal(refreshed.access_token, 'at3');
    assert.equal(inner.calls.length, 2);
    assert.equal((await readCredentials(store, serverUrl)).tokens?.access_token, 'at3');
  });
});

