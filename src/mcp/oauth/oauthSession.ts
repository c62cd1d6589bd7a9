import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { auth, registerClient, type AddClientAuthentication, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createHash, randomBytes } from 'node:crypto';
import type { OAuthSettings } from '../config/serverConfig';
import { CALLBACK_PATH, LoopbackReceiver, PREFERRED_CALLBACK_PORT } from './loopbackReceiver';
import { refreshingFetch } from './refreshingFetch';
import { clientSecretKey, forgetCredentials, readCredentials, REFRESH_MARGIN_MS, tokenFresh, updateCredentials, type ServerCredentials } from './serverCredentials';
import type { SignInEnvironment, SignInReason } from './signInBrowser';
import { MissingClientSecret, SignInDeclined, SignInRequired } from './signInErrors';

/** One authorization started by the SDK and not finished: its page, PKCE verifier, state and listener. */
interface Flow {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
  readonly reason: SignInReason;
  readonly receiver: LoopbackReceiver;
  finished?: Promise<void>;
}

/**
 * One server's OAuth client, as the SDK's auth code drives it (`OAuthClientProvider`): what it
 * reads and saves goes to the secret store under the server URL. When the SDK starts an
 * authorization, the session only records it (the SDK then throws UnauthorizedError); the page
 * opens, and the code is exchanged, in finishSignIn, outside any MCP request and its timeout,
 * once for every request waiting on it. It may start only while `interactively` allows (a start
 * the user asked for, a tool call); otherwise it stops with SignInRequired. The PKCE verifier
 * and `state` live in memory only.
 */
export class OAuthSession implements OAuthClientProvider {
  private redirect: URL;
  /**
   * PKCE verifiers the SDK saved, by their S256 challenge: requests start authorizations
   * concurrently, so the one an authorization URL carries is found by its challenge, not by
   * which was saved last. Only the adopted flow's survives its start.
   */
  private readonly verifiers = new Map<string, string>();
  /** The one sign-in under way on this server: every request that needs it waits for it. */
  private flow: Flow | undefined;
  /** Why the authorization page may open now, innermost last (operations overlap). */
  private readonly reasons: SignInReason[] = [];
  private readonly closed = new AbortController();
  /** The access token of the last request the server refused; undefined before any (or when it carried none). */
  private refusedToken: string | undefined;

  private constructor(
    private readonly server: string,
    private readonly serverUrl: string,
    private readonly settings: OAuthSettings,
    private readonly env: SignInEnvironment,
    redirect: URL,
    /** The fetch the SDK's auth code should use: refresh grants go through the shared lock. */
    readonly fetch: FetchLike,
  ) {
    this.redirect = redirect;
    const { clientId, privateKey } = settings;
    // private_key_jwt: each token request carries an assertion signed with the configured key (RFC 7523).
    this.addClientAuthentication =
      clientId === undefined || privateKey === undefined ? undefined : createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey, alg: settings.signingAlgorithm ?? 'RS256' });
  }

  readonly addClientAuthentication: AddClientAuthentication | undefined;

  static create(server: string, serverUrl: string, settings: OAuthSettings, env: SignInEnvironment, inner: FetchLike = fetch): OAuthSession {
    const redirect = new URL(`http://127.0.0.1:${PREFERRED_CALLBACK_PORT}${CALLBACK_PATH}`);
    const refusals: { session?: OAuthSession } = {};
    const gated = refreshingFetch(inner, { store: env.store, serverUrl, lock: env.lock, onRefused: (token) => refusals.session?.noteRefusal(token) });
    refusals.session = new OAuthSession(server, serverUrl, settings, env, redirect, gated);
    return refusals.session;
  }

  /**
   * The redirect as the browser reaches it, worked out when a sign-in first needs it: in a remote
   * window that forwards the port, which a server that never asks for sign-in should not cost.
   */
  private externalized: Promise<void> | undefined;
  private externalizeRedirect(): Promise<void> {
    this.externalized ??= this.env.browser.externalize(this.redirect).then((url) => {
      this.redirect = url;
    });
    return this.externalized;
  }

  /** Runs `work` with the authorization page allowed to open for `reason`. */
  async interactively<T>(reason: SignInReason, work: () => Promise<T>): Promise<T> {
    this.reasons.push(reason);
    try {
      return await work();
    } finally {
      this.reasons.splice(this.reasons.lastIndexOf(reason), 1);
    }
  }

  /**
   * Completes the sign-in under way (after the SDK threw UnauthorizedError): asks the browser,
   * waits for the redirect, exchanges the code. Every caller gets the same promise; undefined
   * when none is under way.
   */
  finishSignIn(): Promise<void> | undefined {
    const flow = this.flow;
    if (flow === undefined) return undefined;
    flow.finished ??= this.complete(flow).finally(() => {
      if (this.flow === flow) this.flow = undefined;
      void flow.receiver.close();
    });
    return flow.finished;
  }

  /** The connection closed: a sign-in under way ends, and its listener with it. */
  close(): void {
    this.closed.abort();
    if (this.flow !== undefined && this.flow.finished === undefined) void this.flow.receiver.close();
  }

  private async complete(flow: Flow): Promise<void> {
    // Listening before the page opens: a browser already signed in redirects at once.
    const code = flow.receiver.waitForCode(flow.state, this.env.callbackTimeoutMs, this.closed.signal);
    code.catch(() => undefined);
    const opened = await this.env.browser.open(flow.url, { server: this.server, reason: flow.reason });
    if (!opened) throw new SignInDeclined(this.server);
    const authorizationCode = await code;
    const outcome = await auth(this, { serverUrl: this.serverUrl, authorizationCode, fetchFn: this.fetch });
    if (outcome !== 'AUTHORIZED') throw new Error('the authorization server did not issue tokens');
  }

  /** Refreshes the stored tokens now (the refresh grant goes through the shared lock); never opens a page. */
  async refresh(): Promise<void> {
    await auth(this, { serverUrl: this.serverUrl, fetchFn: this.fetch });
  }

  /** True when stored tokens should be refreshed before the next request. */
  async needsRefresh(now = Date.now()): Promise<boolean> {
    const credentials = await this.read();
    return credentials.tokens?.refresh_token !== undefined && !tokenFresh(credentials, now, REFRESH_MARGIN_MS);
  }

  async signedIn(): Promise<boolean> {
    return (await this.read()).tokens !== undefined;
  }

  /** None for a client signing in as itself: the SDK then asks prepareTokenRequest for the grant. */
  get redirectUrl(): string | undefined {
    return this.selfSignIn ? undefined : this.redirect.href;
  }

  /** `client_credentials`: the grant itself; anything else is the SDK's authorization code flow. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.selfSignIn) return undefined;
    return new URLSearchParams({ grant_type: 'client_credentials', ...(scope === undefined ? {} : { scope }) });
  }

  private get selfSignIn(): boolean {
    return this.settings.grantType === 'client_credentials';
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.settings.scopes?.join(' ');
    return {
      client_name: 'Quiver',
      redirect_uris: this.selfSignIn ? [] : [this.redirect.href],
      grant_types: this.selfSignIn ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: this.selfSignIn ? [] : ['code'],
      token_endpoint_auth_method: this.settings.privateKey !== undefined ? 'private_key_jwt' : (this.settings.tokenEndpointAuthMethod ?? 'none'),
      software_id: 'quiver-vscode',
      software_version: this.env.clientVersion,
      ...(scope === undefined || scope === '' ? {} : { scope }),
    };
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  /** A client from settings (pre-registered) wins over any stored registration. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, tokenEndpointAuthMethod } = this.settings;
    if (clientId === undefined) return (await this.read()).client;
    const clientSecret = this.settings.clientSecret ?? (await this.env.store.get(clientSecretKey(this.serverUrl)));
    const needsSecret = (tokenEndpointAuthMethod !== undefined && tokenEndpointAuthMethod !== 'none') || (this.selfSignIn && this.settings.privateKey === undefined);
    if (needsSecret && clientSecret === undefined) throw new MissingClientSecret(this.server);
    return { client_id: clientId, ...(clientSecret === undefined ? {} : { client_secret: clientSecret }), ...(tokenEndpointAuthMethod === undefined ? {} : { token_endpoint_auth_method: tokenEndpointAuthMethod }) };
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.settings.clientId !== undefined) return;
    await this.update((c) => ({ ...c, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.update((c) => ({ ...c, tokens, obtainedAt: Date.now() }));
  }

  /** The SDK's auth code asks this first, before it reads the redirect for a registration or an authorization. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    await this.externalizeRedirect();
    return (await this.read()).discovery;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.update((c) => ({ ...c, discovery }));
  }

  saveCodeVerifier(verifier: string): void {
    this.verifiers.set(createHash('sha256').update(verifier).digest('base64url'), verifier);
  }

  /** Asked while the code of the flow under way is exchanged. */
  codeVerifier(): string {
    const verifier = this.flow?.verifier;
    if (verifier === undefined) throw new Error('no sign-in is under way for this server');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifiers.clear();
      return;
    }
    if (scope === 'all') return forgetCredentials(this.env.store, this.serverUrl);
    await this.update((c) => {
      const { discovery, client, tokens, obtainedAt } = c;
      if (scope === 'client') return { ...(discovery === undefined ? {} : { discovery }), ...(tokens === undefined ? {} : { tokens, obtainedAt }) };
      if (scope === 'tokens') return { ...(discovery === undefined ? {} : { discovery }), ...(client === undefined ? {} : { client }) };
      return { ...(client === undefined ? {} : { client }), ...(tokens === undefined ? {} : { tokens, obtainedAt }) };
    });
  }

  /**
   * Records the authorization the SDK starts; the page opens in finishSignIn. A second start
   * while one is under way is not one: its request waits for the first (its verifier and state
   * were never sent). The redirect URI in the URL is the one registered; only when its port is
   * taken (another sign-in) does a free one replace it.
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const verifier = this.verifiers.get(authorizationUrl.searchParams.get('code_challenge') ?? '');
    const state = authorizationUrl.searchParams.get('state');
    if (this.flow !== undefined || (await this.signedInSinceRefusal())) return;
    this.verifiers.clear();
    const reason = this.reasons.at(-1);
    if (reason === undefined) throw new SignInRequired(this.server);
    if (verifier === undefined || state === null) throw new Error('the authorization request carries no PKCE challenge of this session or no state');
    // The local port, not the externalized redirect's (a remote window forwards it elsewhere).
    const receiver = await LoopbackReceiver.open(this.server, PREFERRED_CALLBACK_PORT);
    try {
      const external = await this.env.browser.externalize(receiver.url);
      if (external.href !== this.redirect.href) {
        this.redirect = external;
        authorizationUrl.searchParams.set('redirect_uri', external.href);
        await this.registerAgainFor(authorizationUrl);
      }
    } catch (error) {
      await receiver.close();
      throw error;
    }
    this.flow = { url: authorizationUrl, verifier, state, reason, receiver };
  }

  private noteRefusal(accessToken: string | undefined): void {
    this.refusedToken = accessToken;
  }

  /**
   * A request refused with an old token whose authorization starts after another sign-in
   * finished finds new tokens stored: it is retried with them rather than sending the user to
   * sign in twice. A token refused for more scope is the one stored, so step-up goes ahead.
   */
  private async signedInSinceRefusal(): Promise<boolean> {
    const stored = (await this.read()).tokens?.access_token;
    return stored !== undefined && this.refusedToken !== undefined && stored !== this.refusedToken;
  }

  /**
   * The redirect URI changed (the usual port was taken): a client registered dynamically lists
   * the old one, and an authorization server that matches redirect URIs exactly (or a forwarded
   * URL, which differs in its path) refuses it, so it registers again with this one. A client
   * from settings or from a metadata document keeps what it lists.
   */
  private async registerAgainFor(authorizationUrl: URL): Promise<void> {
    const { discovery, client } = await this.read();
    const metadata = discovery?.authorizationServerMetadata;
    const fromDocument = client !== undefined && client.client_id === this.settings.clientMetadataUrl;
    if (this.settings.clientId !== undefined || fromDocument || discovery === undefined || metadata?.registration_endpoint === undefined) return;
    const registered = await registerClient(discovery.authorizationServerUrl, { metadata, clientMetadata: this.clientMetadata, fetchFn: this.fetch });
    await this.saveClientInformation({ ...registered, issuer: discovery.authorizationServerUrl });
    authorizationUrl.searchParams.set('client_id', registered.client_id);
  }

  private read(): Promise<ServerCredentials> {
    return readCredentials(this.env.store, this.serverUrl);
  }

  private async update(change: (current: ServerCredentials) => ServerCredentials): Promise<void> {
    await updateCredentials(this.env.store, this.serverUrl, change);
  }
}
