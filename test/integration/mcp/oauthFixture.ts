import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { SignInBrowser, SignInReason } from '../../../src/mcp/oauth';
import { followToCallback } from '../../fixtures/followSignIn';
import { assertGone, fixture } from './helpers';

/** test/fixtures/mcp/oauth-server.mjs, running: an MCP server that asks for OAuth, and its authorization server. */
export interface OAuthFixture {
  readonly child: ChildProcess;
  readonly origin: string;
  readonly mcpUrl: string;
}

export async function startFixture(): Promise<OAuthFixture> {
  const child = spawn(process.execPath, [fixture('oauth-server.mjs')], {
    env: { ...process.env, PORT: '0', OAUTH_AUTO_APPROVE: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /oauth fixture listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready?.[1] !== undefined) resolve(ready[1]);
    });
    child.once('exit', () => reject(new Error(`the OAuth fixture exited: ${output}`)));
  });
  return { child, origin, mcpUrl: `${origin}/mcp` };
}

export async function stopFixture(server: OAuthFixture | undefined): Promise<void> {
  if (server === undefined) return;
  server.child.kill();
  await assertGone(server.child.pid);
}

export type Behaviour = 'follow' | 'decline' | 'abandon';

/**
 * The person at the browser: `follow` goes through the (auto-approving) authorization page and
 * back to Quiver's loopback listener, as test/conformance/client.mjs does; `decline` says no;
 * `abandon` says yes and never comes back.
 */
export class ScriptedBrowser implements SignInBrowser {
  readonly opened: { readonly server: string; readonly reason: SignInReason }[] = [];

  constructor(public behaviour: Behaviour = 'follow') {}

  externalize(url: URL): Promise<URL> {
    return Promise.resolve(url);
  }

  async open(url: URL, context: { readonly server: string; readonly reason: SignInReason }): Promise<boolean> {
    this.opened.push({ server: context.server, reason: context.reason });
    if (this.behaviour === 'decline') return false;
    if (this.behaviour === 'follow') await followToCallback(url);
    return true;
  }

  reasons(): readonly SignInReason[] {
    return this.opened.map((o) => o.reason);
  }
}
