import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { CALLBACK_PATH, LoopbackReceiver, SignInAbandoned } from '../../../../src/mcp/oauth';

/** A server holding a port on 127.0.0.1. */
async function holdPort(port = 0): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  assert.ok(typeof address === 'object' && address !== null);
  return { server, port: address.port };
}

const release = (server: Server): Promise<void> => new Promise((r) => server.close(() => r()));

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const { server, port } = await holdPort();
  await release(server);
  return port;
}

async function visit(receiver: LoopbackReceiver, query: Record<string, string>, path = CALLBACK_PATH): Promise<{ status: number; type: string | null; body: string }> {
  const url = new URL(path, receiver.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('LoopbackReceiver', () => {
  const open: LoopbackReceiver[] = [];
  const receiver = async (name = 'Example', port?: number): Promise<LoopbackReceiver> => {
    const r = await (port === undefined ? LoopbackReceiver.open(name, await freePort()) : LoopbackReceiver.open(name, port));
    open.push(r);
    return r;
  };

  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });

  it('listens on the preferred port when it is free', async () => {
    const port = await freePort();
    const r = await receiver('Example', port);
    assert.equal(r.url.href, `http://127.0.0.1:${port}/callback`);
  });

  it('falls back to another free port when the preferred one is taken', async () => {
    const busy = await holdPort();
    try {
      const r = await receiver('Example', busy.port);
      assert.equal(r.url.hostname, '127.0.0.1');
      assert.equal(r.url.pathname, '/callback');
      assert.notEqual(Number(r.url.port), busy.port);
      assert.ok(Number(r.url.port) > 0);
      const answered = await visit(r, { state: 'nobody-waits' });
      assert.equal(answered.status, 400);
    } finally {
      await release(busy.server);
    }
  });

  it('resolves with the code of the redirect with the right state, and shows a static page', async () => {
    const r = await receiver('Linear');
    const code = r.waitForCode('s-123', 5_000);
    const page = await visit(r, { code: 'the-code', state: 's-123' });
    assert.equal(await code, 'the-code');
    assert.equal(page.status, 200);
    assert.equal(page.type, 'text/html; charset=utf-8');
    assert.match(page.body, /Quiver is signed in to Linear\./);
    assert.doesNotMatch(page.body, /<script/i);
  });

  it('answers a redirect with the wrong state 400 and keeps waiting', async () => {
    const r = await receiver();
    let settled = false;
    const code = r.waitForCode('right', 5_000).finally(() => (settled = true));
    const wrong = await visit(r, { code: 'stolen', state: 'wrong' });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body, /Sign-in link expired/);
    const noState = await visit(r, { code: 'stolen' });
    assert.equal(noState.status, 400);
    assert.equal(settled, false);
    assert.equal((await visit(r, { code: 'good', state: 'right' })).status, 200);
    assert.equal(await code, 'good');
  });

  it('answers other paths 404 without settling the wait', async () => {
    const r = await receiver();
    let settled = false;
    const code = r.waitForCode('s', 5_000).finally(() => (settled = true));
    const other = await visit(r, { code: 'c', state: 's' }, '/elsewhere');
    assert.equal(other.status, 404);
    assert.equal(settled, false);
    await visit(r, { code: 'c', state: 's' });
    assert.equal(await code, 'c');
  });

  it('rejects with SignInAbandoned carrying the description of an error redirect', async () => {
    const r = await receiver('Example');
    const code = r.waitForCode('s', 5_000);
    const rejected = assert.rejects(code, (error: unknown) => {
      assert.ok(error instanceof SignInAbandoned);
      assert.equal(error.message, 'the authorization server refused: The user said no');
      return true;
    });
    const page = await visit(r, { error: 'access_denied', error_description: 'The user said no', state: 's' });
    await rejected;
    assert.equal(page.status, 400);
    assert.match(page.body, /Example: The user said no\./);
  });

  it('falls back to the error code when there is no description', async () => {
    const r = await receiver();
    const code = r.waitForCode('s', 5_000);
    const rejected = assert.rejects(code, { name: 'Error', message: 'the authorization server refused: access_denied' });
    await visit(r, { error: 'access_denied', state: 's' });
    await rejected;
    assert.ok((await code.catch((e: unknown) => e)) instanceof SignInAbandoned);
  });

  it('rejects when the browser does not come back in time', async () => {
    const r = await receiver();
    await assert.rejects(r.waitForCode('s', 40), (error: unknown) => error instanceof SignInAbandoned && error.message === 'the browser did not come back within 0.0 s');
    await assert.rejects(r.waitForCode('s', 600), (error: unknown) => error instanceof SignInAbandoned && error.message === 'the browser did not come back within 0.6 s');
  });

  it('rejects when the signal aborts, before or during the wait', async () => {
    const r = await receiver();
    await assert.rejects(r.waitForCode('s', 5_000, AbortSignal.abort()), (error: unknown) => error instanceof SignInAbandoned && error.message === 'sign-in was cancelled');
    const controller = new AbortController();
    const code = r.waitForCode('s', 5_000, controller.signal);
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(code, (error: unknown) => error instanceof SignInAbandoned && error.message === 'sign-in was cancelled');
    // The abandoned state is no longer accepted.
    assert.equal((await visit(r, { code: 'late', state: 's' })).status, 400);
  });

  it('close() rejects the wait and frees the port', async () => {
    const r = await LoopbackReceiver.open('Example', await freePort());
    const port = Number(r.url.port);
    const code = r.waitForCode('s', 5_000);
    await visit(r, { state: 'wrong' }); // leaves a keep-alive connection behind
    await r.close();
    await assert.rejects(code, (error: unknown) => error instanceof SignInAbandoned && error.message === 'sign-in was cancelled');
    const again = await holdPort(port);
    assert.equal(again.port, port);
    await release(again.server);
  });

  it('escapes HTML in the server name and the error description', async () => {
    const r = await receiver('<b>x</b>');
    const ok = r.waitForCode('s', 5_000);
    const page = await visit(r, { code: 'c', state: 's' });
    await ok;
    assert.match(page.body, /signed in to &#60;b&#62;x&#60;\/b&#62;\./);
    assert.doesNotMatch(page.body, /<b>/);

    const failed = r.waitForCode('t', 5_000);
    const rejected = assert.rejects(failed, SignInAbandoned);
    const errorPage = await visit(r, { error: 'x', error_description: '<script>alert("hi")</script>', state: 't' });
    await rejected;
    assert.doesNotMatch(errorPage.body, /<script/i);
    assert.match(errorPage.body, /&#60;script&#62;alert\(&#34;hi&#34;\)&#60;\/script&#62;/);
  });
});
