import type { NormalizedTools } from '../catalogue/normalizeTools';
import { formatSeconds } from '../common/errorText';
import type { ServerConnection } from '../connection/serverConnection';
import type { SignInReason } from '../oauth/signInBrowser';
import type { ServerOptions } from './serverSurroundings';

/** Thrown when a start attempt outlives the startup timeout. */
export class StartupTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`did not finish starting within ${formatSeconds(timeoutMs)}`);
  }
}

/** `work`, or a StartupTimeout once `timeoutMs` have passed (the work itself is the caller's to stop). */
export async function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartupTimeout(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts `connection` and lists its tools within the startup timeout; the user's time in the browser (a start that may open a sign-in page) is not the server's. */
export function startAndList(connection: ServerConnection, reason: SignInReason | undefined, options: Pick<ServerOptions, 'startupTimeoutMs' | 'signIn'>): Promise<NormalizedTools> {
  const signInTime = reason === undefined ? 0 : (options.signIn?.callbackTimeoutMs ?? 0);
  return withDeadline(connection.start(reason).then(() => connection.listTools(reason)), options.startupTimeoutMs + signInTime);
}
