import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RefreshLock } from './refreshLock';
import { readCredentials, REFRESH_MARGIN_MS, tokenFresh, updateCredentials } from './serverCredentials';
import type { SecretStore } from './secretStore';

export interface RefreshGateOptions {
  readonly store: SecretStore;
  readonly serverUrl: string;
  readonly lock: RefreshLock;
  readonly now?: () => number;
  /** Told the access token of each request the server refused (401, or 403 for more scope). */
  readonly onRefused?: (accessToken: string | undefined) => void;
}

/**
 * Wraps the fetch the SDK's auth code uses so that every refresh-token grant, wherever the SDK
 * sends it from (a 401, or Quiver's own refresh before expiry), goes through one lock per server,
 * and a refresh token another window already rotated is not presented again: the tokens that
 * window stored are answered instead. A successful refresh is stored before the lock is released.
 */
export function refreshingFetch(inner: FetchLike, options: RefreshGateOptions): FetchLike {
  /** The access token the server last answered 401 to: a refresh is for that one, not for a newer one another window stored. */
  let refused: string | undefined;
  return async (url, init) => {
    const presented = refreshTokenOf(init?.body);
    if (presented === undefined) {
      const response = await inner(url, init);
      if (response.status === 401) refused = bearerOf(init?.headers);
      if (response.status === 401 || response.status === 403) options.onRefused?.(bearerOf(init?.headers));
      return response;
    }
    return options.lock.run(options.serverUrl, async () => {
      const stored = await readCredentials(options.store, options.serverUrl);
      const storedRefresh = stored.tokens?.refresh_token;
      const now = (options.now ?? Date.now)();
      const rotatedElsewhere = storedRefresh !== undefined && storedRefresh !== presented;
      // Fresh, and not the token refused: someone refreshed since. A refresh before expiry finds the stored token not fresh and goes ahead.
      const refreshedSinceRefusal = refused !== undefined && stored.tokens?.access_token !== refused && tokenFresh(stored, now, REFRESH_MARGIN_MS);
      if (stored.tokens !== undefined && (rotatedElsewhere || refreshedSinceRefusal)) {
        return tokenResponse(stored.tokens, stored.obtainedAt, now);
      }
      const response = await inner(url, init);
      if (!response.ok) return response;
      const body: unknown = await response.json();
      if (isTokens(body)) {
        const obtainedAt = (options.now ?? Date.now)();
        // The issuer stamp of the old tokens still holds: a refresh goes to the server that issued them.
        const tokens = { ...body, refresh_token: body.refresh_token ?? presented, ...(stored.tokens?.issuer === undefined ? {} : { issuer: stored.tokens.issuer }) };
        await updateCredentials(options.store, options.serverUrl, (c) => ({ ...c, tokens, obtainedAt }));
      }
      return new Response(JSON.stringify(body), { status: response.status, headers: { 'content-type': 'application/json' } });
    });
  };
}

function bearerOf(headers: HeadersInit | undefined): string | undefined {
  const value = new Headers(headers).get('authorization');
  return value?.toLowerCase().startsWith('bearer ') === true ? value.slice('bearer '.length) : undefined;
}

function refreshTokenOf(body: unknown): string | undefined {
  if (!(body instanceof URLSearchParams) || body.get('grant_type') !== 'refresh_token') return undefined;
  return body.get('refresh_token') ?? undefined;
}

function isTokens(value: unknown): value is { access_token: string; token_type: string; refresh_token?: string; expires_in?: number } {
  return typeof value === 'object' && value !== null && typeof (value as { access_token?: unknown }).access_token === 'string';
}

/** The stored tokens as a token endpoint would answer them now: `expires_in` counts down from when they were issued. */
function tokenResponse(tokens: { readonly expires_in?: number; readonly issuer?: string }, obtainedAt: number | undefined, now: number): Response {
  const { issuer: _issuer, ...wire } = tokens;
  const left = tokens.expires_in === undefined || obtainedAt === undefined ? tokens.expires_in : Math.max(0, Math.floor(tokens.expires_in - (now - obtainedAt) / 1000));
  return new Response(JSON.stringify({ ...wire, ...(left === undefined ? {} : { expires_in: left }) }), { status: 200, headers: { 'content-type': 'application/json' } });
}
