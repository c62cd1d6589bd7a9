import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import type { SecretStore } from './secretStore';

/**
 * Everything sign-in keeps for one MCP server URL, as one secret. The registration and the tokens
 * carry the `issuer` (authorization server) they came from, as the SDK stamps them, so they are
 * never presented to another authorization server. The PKCE verifier is never stored: a flow
 * that does not finish leaves nothing behind.
 */
export interface ServerCredentials {
  readonly discovery?: OAuthDiscoveryState;
  /** Registered dynamically or by metadata document; a pre-registered client lives in settings, not here. */
  readonly client?: OAuthClientInformationMixed;
  readonly tokens?: OAuthTokens;
  /** When `tokens` were issued (ms since the epoch): `expires_in` counts from here. */
  readonly obtainedAt?: number;
}

const FORMAT = 1;
const KEY_PREFIX = `quiver.oauth.v${FORMAT}:`;

// Read leniently: the SDK's own schemas validate these when they are used.
const record = z.object({
  discovery: z.looseObject({ authorizationServerUrl: z.string() }).optional(),
  client: z.looseObject({ client_id: z.string() }).optional(),
  tokens: z.looseObject({ access_token: z.string(), token_type: z.string() }).optional(),
  obtainedAt: z.number().optional(),
});

export function credentialsKey(serverUrl: string): string {
  return `${KEY_PREFIX}${serverUrl}`;
}

/**
 * The client secret of a pre-registered app, when the user put it in the secret store
 * (Quiver: Set MCP Client Secret…) rather than in settings. Kept apart from the credentials:
 * signing out forgets tokens, not the app's secret.
 */
export function clientSecretKey(serverUrl: string): string {
  return `quiver.oauth.clientSecret.v${FORMAT}:${serverUrl}`;
}

/** The server URL a secret's key belongs to; undefined for any other secret. */
export function serverUrlOfKey(key: string): string | undefined {
  return key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : undefined;
}

/** Reads one server's credentials; a value that does not parse counts as none (the user signs in again). */
export async function readCredentials(store: SecretStore, serverUrl: string): Promise<ServerCredentials> {
  const raw = await store.get(credentialsKey(serverUrl));
  if (raw === undefined) return {};
  try {
    const parsed = record.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

export async function writeCredentials(store: SecretStore, serverUrl: string, credentials: ServerCredentials): Promise<void> {
  await store.store(credentialsKey(serverUrl), JSON.stringify(credentials));
}

export async function updateCredentials(store: SecretStore, serverUrl: string, change: (current: ServerCredentials) => ServerCredentials): Promise<ServerCredentials> {
  const next = change(await readCredentials(store, serverUrl));
  await writeCredentials(store, serverUrl, next);
  return next;
}

export async function forgetCredentials(store: SecretStore, serverUrl: string): Promise<void> {
  await store.delete(credentialsKey(serverUrl));
}

/** A token with less than this left is refreshed before a request rather than after its 401. */
export const REFRESH_MARGIN_MS = 60_000;

/** True while the access token has more than `marginMs` left; a token without `expires_in` counts as fresh until refused. */
export function tokenFresh(credentials: ServerCredentials, now: number, marginMs: number): boolean {
  const { tokens, obtainedAt } = credentials;
  if (tokens === undefined) return false;
  if (tokens.expires_in === undefined || obtainedAt === undefined) return true;
  return obtainedAt + tokens.expires_in * 1000 - marginMs > now;
}
