import assert from 'node:assert/strict';
import { credentialsKey, forgetCredentials, MemorySecretStore, readCredentials, type ServerCredentials, tokenFresh, updateCredentials, writeCredentials } from '../../../../src/mcp/oauth';

const url = 'https://mcp.example.com/mcp';
const other = 'https://other.example.com/mcp';

const full: ServerCredentials = {
  discovery: { authorizationServerUrl: 'https://auth.example.com' },
  client: { client_id: 'quiver-123', client_secret: 'shh' },
  tokens: { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1', expires_in: 3600 },
  obtainedAt: 1_000,
};

describe('server credentials', () => {
  it('reads back what was written, per server URL', async () => {
    const store = new MemorySecretStore();
    assert.deepEqual(await readCredentials(store, url), {});
    await writeCredentials(store, url, full);
    assert.deepEqual(await readCredentials(store, url), full);
    assert.deepEqual(await readCredentials(store, other), {});
    assert.deepEqual(store.keys(), [credentialsKey(url)]);
    assert.equal(credentialsKey(url), 'quiver.oauth.v1:https://mcp.example.com/mcp');
  });

  it('keeps fields it does not know inside a record (the SDK stamps issuer)', async () => {
    const store = new MemorySecretStore();
    const tokens = { access_token: 'a', token_type: 'Bearer', issuer: 'https://auth.example.com' };
    await writeCredentials(store, url, { tokens });
    assert.deepEqual(await readCredentials(store, url), { tokens });
  });

  it('updates from the current value and returns the new one', async () => {
    const store = new MemorySecretStore();
    await writeCredentials(store, url, full);
    const seen: ServerCredentials[] = [];
    const next = await updateCredentials(store, url, (current) => {
      seen.push(current);
      return { ...current, tokens: { access_token: 'at-2', token_type: 'Bearer' }, obtainedAt: 2_000 };
    });
    assert.deepEqual(seen, [full]);
    const expected = { ...full, tokens: { access_token: 'at-2', token_type: 'Bearer' }, obtainedAt: 2_000 };
    assert.deepEqual(next, expected);
    assert.deepEqual(await readCredentials(store, url), expected);
  });

  it('forgets one server without touching another', async () => {
    const store = new MemorySecretStore();
    await writeCredentials(store, url, full);
    await writeCredentials(store, other, { obtainedAt: 5 });
    await forgetCredentials(store, url);
    assert.deepEqual(await readCredentials(store, url), {});
    assert.deepEqual(store.keys(), [credentialsKey(other)]);
    assert.deepEqual(await readCredentials(store, other), { obtainedAt: 5 });
  });

  it('reads a corrupt or mis-shaped value as no credentials', async () => {
    const store = new MemorySecretStore();
    for (const raw of ['{not json', 'null', '"text"', '[]', JSON.stringify({ tokens: { access_token: 'a' } }), JSON.stringify({ obtainedAt: 'yesterday' })]) {
      await store.store(credentialsKey(url), raw);
      assert.deepEqual(await readCredentials(store, url), {}, raw);
    }
  });
});

describe('tokenFresh', () => {
  const margin = 60_000;
  const tokens = { access_token: 'a', token_type: 'Bearer', expires_in: 3600 };

  it('is false without tokens', () => {
    assert.equal(tokenFresh({}, 0, margin), false);
    assert.equal(tokenFresh({ obtainedAt: 0, client: { client_id: 'c' } }, 0, margin), false);
  });

  it('is true for a token without expires_in (or without obtainedAt)', () => {
    assert.equal(tokenFresh({ tokens: { access_token: 'a', token_type: 'Bearer' }, obtainedAt: 0 }, 1e12, margin), true);
    assert.equal(tokenFresh({ tokens }, 1e12, margin), true);
  });

  it('is true while more than the margin is left, false inside it', () => {
    const obtainedAt = 1_000_000;
    const expiry = obtainedAt + 3_600_000;
    assert.equal(tokenFresh({ tokens, obtainedAt }, obtainedAt, margin), true);
    assert.equal(tokenFresh({ tokens, obtainedAt }, expiry - margin - 1, margin), true);
    assert.equal(tokenFresh({ tokens, obtainedAt }, expiry - margin, margin), false);
    assert.equal(tokenFresh({ tokens, obtainedAt }, expiry - 1, margin), false);
    assert.equal(tokenFresh({ tokens, obtainedAt }, expiry + 1, 0), false);
    assert.equal(tokenFresh({ tokens, obtainedAt }, expiry - 1, 0), true);
  });
});
