import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { describeSource, type ServerConfig } from '../config/serverConfig';
import { CALLBACK_PATH, PREFERRED_CALLBACK_PORT, SignInAbandoned } from './loopbackReceiver';
import { MissingClientSecret, SignInDeclined, SignInRequired } from './signInErrors';

export interface SignInFailure {
  readonly reason: string;
  /** The user can fix it by signing in (the server waits as *Sign in required*), rather than by editing settings. */
  readonly signIn: boolean;
}

/**
 * A start or call that failed for a sign-in reason, explained as one: which step, and what to do.
 * Undefined for every other failure. No token or secret is ever part of the text.
 */
export function describeSignInFailure(error: unknown, config: ServerConfig): SignInFailure | undefined {
  if (error instanceof SignInRequired || error instanceof SignInDeclined) return { reason: error.message, signIn: true };
  if (error instanceof MissingClientSecret) return { reason: error.message, signIn: false };
  if (error instanceof SignInAbandoned) return { reason: `sign-in did not finish: ${error.message}. Sign In to try again.`, signIn: true };
  if (error instanceof UnauthorizedError) return { reason: 'sign-in did not finish; Sign In to try again.', signIn: true };
  if (config.transport === 'stdio') return undefined;
  const where = describeSource(config.source);
  if (error instanceof OAuthError) {
    return { reason: `sign-in failed at the authorization server (${error.errorCode}: ${error.message}). Sign In to try again; if it repeats, check "oauth" of this server in ${where}.`, signIn: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/does not support dynamic client registration/.test(message)) {
    return {
      reason: `its authorization server does not let Quiver register itself (no dynamic client registration). Register an app with the service, with redirect URL http://127.0.0.1:${PREFERRED_CALLBACK_PORT}${CALLBACK_PATH}, and add "oauth": { "clientId": "…", "clientSecret": "\${env:…}" } to this server in ${where}.`,
      signIn: false,
    };
  }
  if (/clientMetadataUrl must be/.test(message)) return { reason: `"oauth.clientMetadataUrl" in ${where} ${message.replace(/^clientMetadataUrl /, '')}`, signIn: false };
  if (error instanceof StreamableHTTPError && error.code === 401) {
    // A token of the user's own is theirs to fix; Quiver's own sign-in is retried by signing in.
    const ownToken = Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization');
    if (ownToken) return { reason: `the server refused the token in the "Authorization" header (401 Unauthorized): check it in ${where}, or remove the header to sign in with OAuth.`, signIn: false };
    return { reason: "the server refused Quiver's credentials (401 Unauthorized). Sign In to try again.", signIn: true };
  }
  if (error instanceof StreamableHTTPError && error.code === 403) {
    return { reason: 'the server refused access (403 Forbidden): the signed-in account lacks a permission or scope it needs. Sign Out and sign in with an account that has it.', signIn: true };
  }
  return undefined;
}
