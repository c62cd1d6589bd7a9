import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { registerClient, type AddClientAuthentication, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { randomBytes } from 'node:crypto';
import type { OAuthSettings } from '../serverConfig';
import { CALLBACK_PATH, LoopbackReceiver, PREFERRED_CALLBACK_PORT } from './loopbackReceiver';
import { refreshingFetch } from './refreshingFetch';
import { forgetCredentials, readCredentials, tokenFresh, updateCredentials, type ServerCredentials } from './serverCredentials';
import type { SignInEnvironment, SignInReason } from './signInBrowser';
import { SignInDeclined, SignInRequired } from './signInErrors';

/** A token with less than this left is refreshed before a request rather than after its 401. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * One server's OAuth client, as the SDK's auth code drives it (`OAuthClientProvider`): what it
 * reads and saves goes to the secret store under the server URL; the authorization page opens
 * only while `interactive` allows (a start the user asked for, a tool call), otherwise the flow
 * stops with SignInRequired. The PKCE verifier and `state` live in memory only.
 */
export class OAuthSession implements OAuthClientProvider {
  private redirect: URL;
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private pendingCode: Promise<string> | undefined;
  private interaction: SignInReason | undefined;

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

  static async create(server: string, serverUrl: string, settings: OAuthSettings, env: SignInEnvironment, inner: FetchLike = fetch): Promise<OAuthSession> {
    const redirect = await env.browser.externalize(new URL(`http://127.0.0.1:${PREFERRED_CALLBACK_PORT}${CALLBACK_PATH}`));
    return new OAuthSession(server, serverUrl, settings, env, redirect, refreshingFetch(inner, { store: env.store, serverUrl, lock: env.lock }));
  }

  /** Runs `work` with the authorization page allowed to open for `reason`. */
  async interactively<T>(reason: SignInReason, work: () => Promise<T>): Promise<T> {
    const before = this.interaction;
    this.interaction = reason;
    try {
      return await work();
    } finally {
      this.interaction = before;
    }
  }

  /** The code of the authorization the SDK just started (after it threw UnauthorizedError), if one did. */
  takePendingCode(): Promise<string> | undefined {
    const pending = this.pendingCode;
    this.pendingCode = undefined;
    return pending;
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
    this.expectedState = randomBytes(24).toString('base64url');
    return this.expectedState;
  }

  /** A client from settings (pre-registered) wins over any stored registration. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret, tokenEndpointAuthMethod } = this.settings;
    if (clientId !== undefined) {
      return { client_id: clientId, ...(clientSecret === undefined ? {} : { client_secret: clientSecret }), ...(tokenEndpointAuthMethod === undefined ? {} : { token_endpoint_auth_method: tokenEndpointAuthMethod }) };
    }
    return (await this.read()).client;
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

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.read()).discovery;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.update((c) => ({ ...c, discovery }));
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no sign-in is under way for this server');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined;
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
   * Starts listening for the redirect, then opens the page. Listening comes first so a browser
   * that is already signed in and redirects at once is not missed. The redirect URI in the URL is
   * the one registered; only when its port is taken (another sign-in) does a free one replace it.
   */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const reason = this.interaction;
    if (reason === undefined) throw new SignInRequired(this.server);
    const state = this.expectedState;
    if (state === undefined) throw new Error('the authorization request carries no state');
    // The local port, not the externalized redirect's (a remote window forwards it elsewhere).
    const receiver = await LoopbackReceiver.open(this.server, PREFERRED_CALLBACK_PORT);
    try {
      const external = await this.env.browser.externalize(receiver.url);
      if (external.href !== this.redirect.href) {
        this.redirect = external;
        authorizationUrl.searchParams.set('redirect_uri', external.href);
        await this.registerAgainFor(authorizationUrl);
      }
      const code = receiver.waitForCode(state, this.env.callbackTimeoutMs);
      code.catch(() => undefined);
      const opened = await this.env.browser.open(authorizationUrl, { server: this.server, reason });
      if (!opened) throw new SignInDeclined(this.server);
      // The code is handed on at once; the listener winds down on its own.
      this.pendingCode = code.finally(() => void receiver.close());
    } catch (error) {
      await receiver.close();
      throw error;
    }
  }

  /**
   * The redirect URI changed (the usual port was taken, and a forwarded one differs in more than
   * the port): a client registered dynamically lists the old one, so it registers again with this
   * one. A client from settings or a metadata document keeps what it lists.
   */
  private async registerAgainFor(authorizationUrl: URL): Promise<void> {
    const { discovery, client } = await this.read();
    const metadata = discovery?.authorizationServerMetadata;
    if (this.settings.clientId !== undefined || discovery === undefined || metadata?.registration_endpoint === undefined || client?.client_id === this.settings.clientMetadataUrl) return;
    const registered = await registerClient(discovery.authorizationServerUrl, { metadata, clientMetadata: this.clientMetadata, fetchFn: this.fetch });
    await this.saveClientInformation({ ...registered, issuer: discovery.authorizationServerUrl });
    authorizationUrl.searchParams.set('client_id', registered.client_id);
  }

  /** Signing out forgets tokens, registration and discovery: the next sign-in starts from scratch. */
  async signOut(): Promise<void> {
    await forgetCredentials(this.env.store, this.serverUrl);
  }

  private read(): Promise<ServerCredentials> {
    return readCredentials(this.env.store, this.serverUrl);
  }

  private async update(change: (current: ServerCredentials) => ServerCredentials): Promise<void> {
    await updateCredentials(this.env.store, this.serverUrl, change);
  }
}
