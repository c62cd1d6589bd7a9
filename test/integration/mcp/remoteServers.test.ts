import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteServerConfig } from '../../../src/mcp/config';
import { assertGone, disposeAll, manager, npmServer, signal, textOf, USER } from './helpers';

/** Runs server-everything over HTTP (on a free port unless given one) and resolves once it listens. */
async function startHttpServer(mode: 'streamableHttp' | 'sse', port?: number): Promise<{ child: ChildProcess; port: number }> {
  port ??= await freePort();
  const child = spawn(process.execPath, [npmServer('everything'), mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening|running on port/i.test(output)) resolve();
    });
    child.once('exit', () => reject(new Error(`server exited: ${output}`)));
  });
  return { child, port };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('MCP manager over HTTP', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await disposeAll();
    for (const child of children.splice(0)) {
      child.kill();
      await assertGone(child.pid);
    }
  });

  it('connects over Streamable HTTP and calls a tool', async () => {
    const { child, port } = await startHttpServer('streamableHttp');
    children.push(child);
    const { manager: m } = manager();
    m.applyConfig([{ transport: 'http', name: 'remote', url: `http://127.0.0.1:${port}/mcp`, headers: { 'X-Test': 'yes' }, source: USER }]);
    await m.whenIdle();
    assert.equal(m.status('remote')?.state, 'running', m.status('remote')?.reason);
    assert.equal(m.status('remote')?.pid, undefined);
    assert.equal(textOf(await m.call('remote__echo', { message: 'over http' }, signal())), 'Echo: over http');
  });

  it('falls back to SSE when the server does not speak Streamable HTTP', async () => {
    const { child, port } = await startHttpServer('sse');
    children.push(child);
    const { manager: m, log } = manager();
    m.applyConfig([{ transport: 'http', name: 'legacy', url: `http://127.0.0.1:${port}/sse`, headers: {}, source: USER }]);
    await m.whenIdle();
    assert.equal(m.status('legacy')?.state, 'running', m.status('legacy')?.reason);
    assert.ok(log.lines.some((l) => l.startsWith('info [legacy] Streamable HTTP failed')));
    assert.equal(textOf(await m.call('legacy__echo', { message: 'over sse' }, signal())), 'Echo: over sse');
  });

  it('fails with a clear reason when nothing listens, without trying SSE (only a 4xx to the first POST means an SSE-only server)', async () => {
    const port = await freePort();
    const { manager: m, log } = manager();
    m.applyConfig([{ transport: 'http', name: 'nobody', url: `http://127.0.0.1:${port}/mcp`, headers: {}, source: USER }]);
    await m.whenIdle();
    assert.equal(m.status('nobody')?.state, 'failed');
    assert.equal(m.status('nobody')?.reason, 'failed to start: fetch failed (ECONNREFUSED)');
    assert.ok(!log.lines.some((l) => l.includes('trying SSE')), log.lines.join('\n'));
  });

  it('idles on its cached catalogue without connecting (the endpoint may be down); a call connects; other headers are another catalogue', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'quiver-remote-cache-'));
    try {
      const first = await startHttpServer('streamableHttp');
      const config: RemoteServerConfig = { transport: 'http', name: 'remote', url: `http://127.0.0.1:${first.port}/mcp`, headers: { 'X-Test': 'yes' }, source: USER };
      const { manager: warm } = manager({ catalogueCacheDir: cacheDir });
      warm.applyConfig([config]);
      await warm.whenIdle();
      const listed = warm.tools().map((t) => t.name);
      await warm.dispose();
      first.child.kill();
      await assertGone(first.child.pid);

      const { manager: m } = manager({ catalogueCacheDir: cacheDir });
      m.applyConfig([config, { ...config, name: 'rotated', headers: { 'X-Test': 'rotated' } }], { off: new Set(), idle: new Set(['remote', 'rotated']) });
      await m.whenIdle();
      assert.equal(m.status('remote')?.state, 'idle');
      assert.deepEqual(m.tools().map((t) => t.name), listed);
      assert.equal(m.status('rotated')?.state, 'failed', 'no catalogue for other headers: it tried to connect');

      const again = await startHttpServer('streamableHttp', first.port);
      children.push(again.child);
      assert.equal(textOf(await m.call('remote__echo', { message: 'woken' }, signal())), 'Echo: woken');
      assert.equal(m.status('remote')?.state, 'running');
    } finally {
      await disposeAll();
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
