import type { RefreshLock } from './refreshLock';
import type { SecretStore } from './secretStore';

/** Why Quiver wants to open the authorization page: the host may ask first when the user did not click Sign In. */
export type SignInReason = 'signIn' | 'toolCall';

/** The one step of sign-in a person does: the host (the editor, or a test's scripted browser) provides it. */
export interface SignInBrowser {
  /** Opens the authorization page; false when the user declined (the flow then ends). */
  open(url: URL, context: { readonly server: string; readonly reason: SignInReason }): Promise<boolean>;
  /** Maps the loopback redirect URL to one the browser can reach (a remote window forwards the port). */
  externalize(url: URL): Promise<URL>;
}

export interface SignInEnvironment {
  readonly browser: SignInBrowser;
  readonly store: SecretStore;
  readonly lock: RefreshLock;
  /** How long the browser has to come back with a code. */
  readonly callbackTimeoutMs: number;
  readonly clientVersion: string;
}
