import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { clientSecretKey, credentialsKey, MemorySecretStore, MissingClientSecret, OAuthSession, readCredentials, type ServerCredentials, SharedRefreshLock, SignInAbandoned, type SignInBrowser, SignInDeclined, type SignInEnvironment, type SignInReason, SignInRequired, writeCredentials } from '../../../../src/mcp/oauth';
import type { OAuthSettings } from '../../../../src/mcp/config';

const serverUrl = 'https://mcp.example.com/mcp';

/** A browser driven by the test: records what it was asked and answers `open` with `onOpen`. */
class ScriptedBrowser implements SignInBrowser {
  readonly opened: { url: string; server: string; reason: SignInReason }[] = [];
  readonly externalized: string[] = [];
  constructor(
    private readonly onOpen: (url: URL) => Promise<boolean> = () => Promise.resolve(false),
    private readonly mapUrl: (url: URL) => URL = (url) => url,
  ) {}

  async open(url: URL, context: { readonly server: string; readonly reason: SignInReason }): Promise<boolean> {
    this.opened.push({ url: url.href, ...context });
    return this.onOpen(url);
  }

  externalize(url: URL): Promise<URL> {
    this.externalized.push(url.href);
    return Promise.resolve(this.mapUrl(url));
  }
}

function environment(browser: SignInBrowser = new ScriptedBrowser()): SignInEnvironment & { store: MemorySecretStore } {
  return { browser, store: new MemorySecretStore(), lock: new SharedRefreshLock(undefined), callbackTimeoutMs: 5_000, clientVersion: '9.9.9' };
}

const noFetch = (): Promise<Response> => Promise.reject(new Error('no network in this test'));

const session = (settings: OAuthSettings, env: SignInEnvironment): OAuthSession => OAuthSession.create('Example', serverUrl, settings, env, noFetch);

/** True when nothing listens on 127.0.0.1:`port` (a fresh listener gets it). */
async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  const free = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (free) await new Promise((r) => server.close(r));
  return free;
}

const full: ServerCredentials = {
  discovery: { authorizationServerUrl: 'https://auth.example.com' },
  client: { client_id: 'registered' },
  tokens: { access_token: 'at', token_type: 'Bearer', refresh_token: 'rt', expires_in: 3600 },
  obtainedAt: 1_000,
};

describe('OAuthSession', () => {
  describe('client information', () => {
    it('takes a registered client\'s secret from the secret store when settings have none, and says how to give one when neither has it', async () => {
      const env = environment();
      const s = session({ clientId: 'cid', tokenEndpointAuthMethod: 'client_secret_basic' }, env);
      await assert.rejects(s.clientInformation(), (error: unknown) => error instanceof MissingClientSecret && /Quiver: Set MCP Client Secret/.test(error.message) && /"oauth.clientSecret"/.test(error.message));
      await env.store.store(clientSecretKey(serverUrl), 'from-keychain');
      assert.deepEqual(await s.clientInformation(), { client_id: 'cid', client_secret: 'from-keychain', token_endpoint_auth_method: 'client_secret_basic' });
      const fromSettings = session({ clientId: 'cid', clientSecret: 'from-settings' }, env);
      assert.equal((await fromSettings.clientInformation())?.client_secret, 'from-settings', 'settings win');
      await assert.rejects((session({ grantType: 'client_credentials', clientId: 'svc' }, environment())).clientInformation(), MissingClientSecret);
    });

    it('answers the client from settings and never stores a registration then', async () => {
      const env = environment();
      const s = session({ clientId: 'cid', clientSecret: 'csecret', tokenEndpointAuthMethod: 'client_secret_post' }, env);
      assert.deepEqual(await s.clientInformation(), { client_id: 'cid', client_secret: 'csecret', token_endpoint_auth_method: 'client_secret_post' });
      await s.saveClientInformation({ client_id: 'dynamic', client_secret: 'dyn-secret' });
      assert.deepEqual(env.store.keys(), []);
      assert.deepEqual(await s.clientInformation(), { client_id: 'cid', client_secret: 'csecret', token_endpoint_auth_method: 'client_secret_post' });
    });

    it('answers just the client ID of a public pre-registered client', async () => {
      const s = session({ clientId: 'public' }, environment());
      assert.deepEqual(await s.clientInformation(), { client_id: 'public' });
    });

    it('answers the stored registration when settings have no client', async () => {
      const env = environment();
      const s = session({}, env);
      assert.equal(await s.clientInformation(), undefined);
      await s.saveClientInformation({ client_id: 'dynamic', client_secret: 'dyn-secret' });
      assert.deepEqual(await s.clientInformation(), { client_id: 'dynamic', client_secret: 'dyn-secret' });
      assert.deepEqual(await readCredentials(env.store, serverUrl), { client: { client_id: 'dynamic', client_secret: 'dyn-secret' } });
    });
  });

  describe('a service account (client_credentials)', () => {
    it('has no redirect, asks for the client_credentials grant, and signs its token requests with the private key', async () => {
      const { generateKeyPairSync } = await import('node:crypto');
      const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const s = session({ grantType: 'client_credentials', clientId: 'svc', privateKey, signingAlgorithm: 'ES256', scopes: ['read'] }, environment());
      assert.equal(s.redirectUrl, undefined);
      assert.equal(s.prepareTokenRequest('read')?.toString(), 'grant_type=client_credentials&scope=read');
      assert.equal(s.clientMetadata.token_endpoint_auth_method, 'private_key_jwt');
      const params = new URLSearchParams();
      await s.addClientAuthentication?.(new Headers(), params, 'https://auth.example.com/token');
      assert.equal(params.get('client_assertion_type'), 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      const [, payload] = (params.get('client_assertion') ?? '').split('.');
      const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { iss?: string; sub?: string; aud?: unknown };
      assert.equal(claims.iss, 'svc');
      assert.equal(claims.sub, 'svc');
    });

    it('a person\'s sign-in asks the SDK for the authorization code flow', () => {
      const s = session({}, environment());
      assert.equal(s.prepareTokenRequest(), undefined);
      assert.equal(s.addClientAuthentication, undefined);
    });
  });

  describe('client metadata', () => {
    it('registers the externalized loopback redirect, as a public client by default', async () => {
      const browser = new ScriptedBrowser(undefined, (url) => new URL(url.href.replace('127.0.0.1:33418', 'localhost:43418')));
      const s = session({}, environment(browser));
      assert.deepEqual(browser.externalized, [], 'nothing is forwarded for a server that never asks for sign-in');
      await s.discoveryState();
      assert.deepEqual(browser.externalized, ['http://127.0.0.1:33418/callback']);
      assert.equal(s.redirectUrl, 'http://localhost:43418/callback');
      assert.deepEqual(s.clientMetadata, {
        client_name: 'Quiver',
        redirect_uris: ['http://localhost:43418/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        software_id: 'quiver-vscode',
        software_version: '9.9.9',
      });
      assert.equal(s.clientMetadataUrl, undefined);
    });

    it('carries the scope, auth method and metadata document URL from settings', () => {
      const s = session({ scopes: ['read', 'write'], tokenEndpointAuthMethod: 'client_secret_basic', clientMetadataUrl: 'https://example.com/client.json' }, environment());
      assert.deepEqual(s.clientMetadata.redirect_uris, ['http://127.0.0.1:33418/callback']);
      assert.equal(s.clientMetadata.scope, 'read write');
      assert.equal(s.clientMetadata.token_endpoint_auth_method, 'client_secret_basic');
      assert.equal(s.clientMetadataUrl, 'https://example.com/client.json');
      assert.equal('scope' in (session({ scopes: [] }, environment())).clientMetadata, false);
    });
  });

  describe('redirectToAuthorization and finishSignIn', () => {
    const TOKEN_ENDPOINT = 'https://auth.example.com/token';
    const authorizationUrl = (s: OAuthSession, verifier = 'the-verifier'): URL => {
      s.saveCodeVerifier(verifier);
      const url = new URL('https://auth.example.com/authorize');
      url.searchParams.set('redirect_uri', s.redirectUrl ?? '');
      url.searchParams.set('state', s.state());
      url.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
      return url;
    };
    /** A browser that follows the page straight back to the listener with `code`. */
    const returning = (code: string): ScriptedBrowser =>
      new ScriptedBrowser(async (url) => {
        const back = new URL(url.searchParams.get('redirect_uri') ?? assert.fail('no redirect_uri'));
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        assert.equal((await fetch(back)).status, 200);
        return true;
      });
    /** An authorization server that only has a token endpoint; records the token requests. */
    const tokenServer = (bodies: URLSearchParams[]) => (url: string | URL, init?: RequestInit): Promise<Response> => {
      if (String(url) !== TOKEN_ENDPOINT) return Promise.resolve(new Response('not found', { status: 404 }));
      bodies.push(init?.body instanceof URLSearchParams ? init.body : new URLSearchParams());
      return Promise.resolve(Response.json({ access_token: 'new-at', token_type: 'Bearer', refresh_token: 'new-rt', expires_in: 3600 }));
    };
    /** A store where discovery and registration are done, as when the SDK starts an authorization. */
    const discovered = async (env: SignInEnvironment & { store: MemorySecretStore }): Promise<void> => {
      await writeCredentials(env.store, serverUrl, {
        discovery: {
          authorizationServerUrl: 'https://auth.example.com',
          authorizationServerMetadata: { issuer: 'https://auth.example.com', authorization_endpoint: 'https://auth.example.com/authorize', token_endpoint: TOKEN_ENDPOINT, response_types_supported: ['code'] },
        },
        client: { client_id: 'registered', issuer: 'https://auth.example.com' },
      });
    };
    const waitUntilFree = async (port: number): Promise<void> => {
      for (let i = 0; i < 100 && !(await portFree(port)); i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await portFree(port), true, `port ${port} still taken`);
    };

    it('outside interactively() stops with SignInRequired and opens nothing', async () => {
      const browser = new ScriptedBrowser(() => assert.fail('must not open the browser'));
      const s = session({}, environment(browser));
      await assert.rejects(s.redirectToAuthorization(authorizationUrl(s)), (error: unknown) => error instanceof SignInRequired && error.server === 'Example');
      assert.deepEqual(browser.opened, []);
      assert.equal(s.finishSignIn(), undefined);
    });

    it('records the authorization; the page opens only in finishSignIn, and a declined one ends with SignInDeclined, nothing left listening', async () => {
      const browser = new ScriptedBrowser(() => Promise.resolve(false));
      const s = session({}, environment(browser));
      await s.interactively('toolCall', () => s.redirectToAuthorization(authorizationUrl(s)));
      assert.equal(browser.opened.length, 0, 'not inside the SDK request');
      await assert.rejects(s.finishSignIn() ?? assert.fail('no sign-in under way'), (error: unknown) => error instanceof SignInDeclined && error.server === 'Example');
      assert.deepEqual(browser.opened.map((o) => [o.server, o.reason]), [['Example', 'toolCall']]);
      await waitUntilFree(Number(new URL(browser.externalized.at(-1) ?? '').port));
      assert.equal(s.finishSignIn(), undefined, 'the flow is over');
    });

    it('a browser that comes back: the code is exchanged with that flow\'s verifier, once for every waiter, and the tokens stored', async () => {
      const bodies: URLSearchParams[] = [];
      const env = environment(returning('the-code'));
      await discovered(env);
      const s = OAuthSession.create('Example', serverUrl, {}, env, tokenServer(bodies));
      await s.interactively('signIn', () => s.redirectToAuthorization(authorizationUrl(s, 'first-verifier')));
      // A second start while the first is under way (another request's 401) changes nothing.
      await s.interactively('toolCall', () => s.redirectToAuthorization(authorizationUrl(s, 'second-verifier')));
      const first = s.finishSignIn();
      assert.ok(first !== undefined);
      assert.equal(s.finishSignIn(), first, 'every waiter gets the same sign-in');
      await first;
      assert.equal((env.browser as ScriptedBrowser).opened.length, 1);
      assert.deepEqual(bodies.map((b) => [b.get('grant_type'), b.get('code'), b.get('code_verifier')]), [['authorization_code', 'the-code', 'first-verifier']]);
      assert.equal((await readCredentials(env.store, serverUrl)).tokens?.access_token, 'new-at');
    });

    it('close() ends a sign-in under way and frees its port', async () => {
      const browser = new ScriptedBrowser(() => Promise.resolve(true));
      const s = session({}, environment(browser));
      await s.interactively('signIn', () => s.redirectToAuthorization(authorizationUrl(s)));
      const finishing = s.finishSignIn() ?? assert.fail('no sign-in under way');
      await new Promise((r) => setTimeout(r, 20));
      s.close();
      await assert.rejects(finishing, (error: unknown) => error instanceof SignInAbandoned);
      await waitUntilFree(Number(new URL(browser.externalized.at(-1) ?? '').port));
    });

    it('fails on an authorization URL without a challenge of this session or without a state', async () => {
      const s = session({}, environment());
      await assert.rejects(s.interactively('signIn', () => s.redirectToAuthorization(new URL('https://auth.example.com/authorize?state=x'))), /no PKCE challenge of this session or no state/);
      const url = authorizationUrl(s);
      url.searchParams.delete('state');
      await assert.rejects(s.interactively('signIn', () => s.redirectToAuthorization(url)), /no PKCE challenge of this session or no state/);
    });

    it('finds the verifier of the URL by its challenge when another start saved one since (concurrent requests)', async () => {
      const bodies: URLSearchParams[] = [];
      const env = environment(returning('the-code'));
      await discovered(env);
      const s = OAuthSession.create('Example', serverUrl, {}, env, tokenServer(bodies));
      const first = authorizationUrl(s, 'first-verifier');
      s.saveCodeVerifier('second-verifier');
      await s.interactively('signIn', () => s.redirectToAuthorization(first));
      await s.finishSignIn();
      assert.deepEqual(bodies.map((b) => b.get('code_verifier')), ['first-verifier']);
    });

    it('interactively() keeps an outer permission while an inner one ends, and drops it after, even on failure', async () => {
      const browser = new ScriptedBrowser(() => Promise.resolve(false));
      const s = session({}, environment(browser));
      let release = (): void => undefined;
      const outer = s.interactively('signIn', () => new Promise<void>((r) => (release = r)));
      await s.interactively('toolCall', () => Promise.resolve());
      await s.redirectToAuthorization(authorizationUrl(s));
      await assert.rejects(s.finishSignIn() ?? assert.fail('no sign-in under way'), SignInDeclined);
      assert.deepEqual(browser.opened.map((o) => o.reason), ['signIn'], 'the outer reason held');
      release();
      await outer;
      await assert.rejects(s.interactively('signIn', () => Promise.reject(new Error('inner'))), /inner/);
      await assert.rejects(s.redirectToAuthorization(authorizationUrl(s)), SignInRequired);
    });
  });

  describe('stored credentials', () => {
    const seeded = async (): Promise<{ s: OAuthSession; env: SignInEnvironment & { store: MemorySecretStore } }> => {
      const env = environment();
      await writeCredentials(env.store, serverUrl, full);
      return { s: session({}, env), env };
    };

    it('invalidates tokens only', async () => {
      const { s, env } = await seeded();
      await s.invalidateCredentials('tokens');
      assert.deepEqual(await readCredentials(env.store, serverUrl), { discovery: full.discovery, client: full.client });
    });

    it('invalidates the client only', async () => {
      const { s, env } = await seeded();
      await s.invalidateCredentials('client');
      assert.deepEqual(await readCredentials(env.store, serverUrl), { discovery: full.discovery, tokens: full.tokens, obtainedAt: full.obtainedAt });
    });

    it('invalidates discovery only', async () => {
      const { s, env } = await seeded();
      await s.invalidateCredentials('discovery');
      assert.deepEqual(await readCredentials(env.store, serverUrl), { client: full.client, tokens: full.tokens, obtainedAt: full.obtainedAt });
    });

    it('invalidates everything', async () => {
      const { s, env } = await seeded();
      await s.invalidateCredentials('all');
      assert.deepEqual(env.store.keys(), []);
      assert.equal(await s.signedIn(), false);
    });

    it('keeps the PKCE verifier in memory only', async () => {
      const { s, env } = await seeded();
      const verifier = 'pkce-verifier-that-must-stay-in-memory';
      s.saveCodeVerifier(verifier);
      await s.saveTokens({ access_token: 'at2', token_type: 'Bearer' });
      await s.saveClientInformation({ client_id: 'c2' });
      await s.saveDiscoveryState({ authorizationServerUrl: 'https://auth2.example.com' });
      assert.throws(() => s.codeVerifier(), /no sign-in is under way/, 'a verifier is only asked for while its flow is exchanged');
      const raw = (await env.store.get(credentialsKey(serverUrl))) ?? '';
      assert.ok(raw.includes('at2') && raw.includes('c2') && raw.includes('auth2.example.com'), raw);
      for (const key of env.store.keys()) assert.ok(!((await env.store.get(key)) ?? '').includes(verifier), key);
      await s.invalidateCredentials('verifier');
      assert.throws(() => s.codeVerifier(), /no sign-in is under way/);
      assert.deepEqual((await readCredentials(env.store, serverUrl)).client, { client_id: 'c2' });
    });

    it('stamps saved tokens and answers them back', async () => {
      const env = environment();
      const s = session({}, env);
      assert.equal(await s.signedIn(), false);
      const before = Date.now();
      await s.saveTokens({ access_token: 'a', token_type: 'Bearer', refresh_token: 'r', expires_in: 30 });
      const stored = await readCredentials(env.store, serverUrl);
      assert.ok(stored.obtainedAt !== undefined && stored.obtainedAt >= before && stored.obtainedAt <= Date.now());
      assert.deepEqual(await s.tokens(), { access_token: 'a', token_type: 'Bearer', refresh_token: 'r', expires_in: 30 });
      assert.equal(await s.signedIn(), true);
      // 30 s left is inside the refresh margin.
      assert.equal(await s.needsRefresh(), true);
      await s.saveTokens({ access_token: 'a', token_type: 'Bearer', refresh_token: 'r', expires_in: 3600 });
      assert.equal(await s.needsRefresh(), false);
      await s.saveTokens({ access_token: 'a', token_type: 'Bearer', expires_in: 1 });
      assert.equal(await s.needsRefresh(), false, 'nothing to refresh with');
    });

    it('sends requests through the inner fetch it was given', async () => {
      const env = environment();
      const seen: string[] = [];
      const s = OAuthSession.create('Example', serverUrl, {}, env, (url) => {
        seen.push(String(url));
        return Promise.resolve(new Response('ok'));
      });
      assert.equal(await (await s.fetch('https://mcp.example.com/mcp')).text(), 'ok');
      assert.deepEqual(seen, ['https://mcp.example.com/mcp']);
    });
  });
});
