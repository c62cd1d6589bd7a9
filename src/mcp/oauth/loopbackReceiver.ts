import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { formatSeconds } from '../common/errorText';

/**
 * The port asked for first. A fixed port keeps the redirect URI a server registered Quiver with
 * valid from one sign-in to the next (and is what a pre-registered app lists); when another
 * sign-in holds it, any free port is used, which RFC 8252 §7.3 requires loopback redirects to allow.
 */
export const PREFERRED_CALLBACK_PORT = 33418;
export const CALLBACK_PATH = '/callback';
const PAGE_FLUSH_MS = 500;

/** Why a sign-in did not come back with a code; the message is for the user. */
export class SignInAbandoned extends Error {}

interface Pending {
  readonly state: string;
  readonly resolve: (code: string) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A listener on 127.0.0.1 for the authorization server's redirect (RFC 8252 §7.3): it takes the
 * `code` of the one flow whose `state` it was told, answers the browser with a page saying where
 * to go next, and ignores anything else.
 */
export class LoopbackReceiver {
  private pending: Pending | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: URL,
    private readonly serverName: string,
  ) {
    server.on('request', (req, res) => this.handle(req, res));
  }

  static async open(serverName: string, preferredPort = PREFERRED_CALLBACK_PORT): Promise<LoopbackReceiver> {
    const server = createServer();
    const port = await listen(server, preferredPort).catch(() => listen(server, 0));
    return new LoopbackReceiver(server, new URL(`http://127.0.0.1:${port}${CALLBACK_PATH}`), serverName);
  }

  /** Resolves with the code of the redirect carrying `state`; rejects on an error redirect, the timeout or `signal`. */
  waitForCode(state: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => finish(new SignInAbandoned(`the browser did not come back within ${formatSeconds(timeoutMs)}`)), timeoutMs);
      const onAbort = (): void => finish(new SignInAbandoned('sign-in was cancelled'));
      const finish = (outcome: string | Error): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending = undefined;
        if (typeof outcome === 'string') resolve(outcome);
        else reject(outcome);
      };
      if (signal?.aborted === true) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = { state, resolve: (code) => finish(code), reject: (error) => finish(error) };
    });
  }

  /**
   * Stops listening. A browser keeps connections open (some it opened ahead and never used),
   * and `close` waits for every one: idle ones go now, the rest once the last page had a moment
   * to reach the browser.
   */
  async close(): Promise<void> {
    this.pending?.reject(new SignInAbandoned('sign-in was cancelled'));
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const straggler = setTimeout(() => this.server.closeAllConnections(), PAGE_FLUSH_MS);
    straggler.unref();
    await closed;
    clearTimeout(straggler);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return page(res, 404, 'Not found', 'This address only receives sign-in redirects.');
    const pending = this.pending;
    if (pending === undefined || url.searchParams.get('state') !== pending.state) {
      return page(res, 400, 'Sign-in link expired', 'This sign-in is not the one Quiver is waiting for. Start it again from the Tools view (Sign In).');
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || code === null) {
      const why = url.searchParams.get('error_description') ?? error ?? 'no authorization code was returned';
      pending.reject(new SignInAbandoned(`the authorization server refused: ${why}`));
      return page(res, 400, 'Sign-in failed', `${this.serverName}: ${why}. You can close this tab; Sign In in VS Code tries again.`);
    }
    pending.resolve(code);
    page(res, 200, 'Signed in', `Quiver is signed in to ${this.serverName}. You can close this tab and return to VS Code.`);
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/** A static page: no script, and the only variable text (a server's name or message) is escaped. */
function page(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'", 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;margin:4em auto;max-width:34em}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
