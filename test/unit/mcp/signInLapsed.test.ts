import assert from 'node:assert/strict';
import { signInLapsed, type CachedCatalogue } from '../../../src/mcp/catalogue';
import type { RemoteServerConfig, StdioServerConfig } from '../../../src/mcp/config';
import { MemorySecretStore, writeCredentials } from '../../../src/mcp/oauth';

const url = 'https://mcp.example.com/mcp';
const remote: RemoteServerConfig = { name: 'notion', transport: 'http', url, headers: {}, oauth: undefined, source: { kind: 'userSettings' } };
const local: StdioServerConfig = { name: 'files', transport: 'stdio', command: 'node', args: [], env: {}, cwd: undefined, source: { kind: 'userSettings' } };
const overSignIn: CachedCatalogue = { server: undefined, listedAt: 1, tools: [], signedIn: true };
const withoutSignIn: CachedCatalogue = { server: undefined, listedAt: 1, tools: [] };

describe('signInLapsed', () => {
  it('a catalogue listed over a sign-in whose tokens are gone waits for a sign-in again', async () => {
    const store = new MemorySecretStore();
    assert.equal(await signInLapsed(overSignIn, remote, store), true);
    await writeCredentials(store, url, { client: { client_id: 'quiver-1' } });
    assert.equal(await signInLapsed(overSignIn, remote, store), true, 'a registration alone is no sign-in');
  });

  it('holds while tokens are stored, and never for a catalogue listed without sign-in, a stdio server or no store', async () => {
    const store = new MemorySecretStore();
    await writeCredentials(store, url, { tokens: { access_token: 'at', token_type: 'Bearer' } });
    assert.equal(await signInLapsed(overSignIn, remote, store), false);
    const empty = new MemorySecretStore();
    assert.equal(await signInLapsed(withoutSignIn, remote, empty), false);
    assert.equal(await signInLapsed(overSignIn, local, empty), false);
    assert.equal(await signInLapsed(overSignIn, remote, undefined), false);
  });
});
