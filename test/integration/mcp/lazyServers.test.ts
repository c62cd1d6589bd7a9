import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpManager } from '../../../src/mcp/manager';
import type { RestingServers, StdioServerConfig } from '../../../src/mcp/config';
import { assertGone, disposeAll, fixture, manager, nodeServer, signal, textOf, waitFor } from './helpers';

/** Every tool discoverable: the server may idle when its catalogue is cached. */
const idle = (...names: string[]): RestingServers => ({ off: new Set(), idle: new Set(names) });

describe('servers that sleep until needed (cached catalogues)', function () {
  this.timeout(30_000);
  let dir: string;
  let cacheDir: string;
  let toolsFile: string;
  let startLog: string;
  let config: StdioServerConfig;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quiver-lazy-'));
    cacheDir = join(dir, 'catalogues');
    toolsFile = join(dir, 'tools.json');
    startLog = join(dir, 'starts.log');
    await listTools('alpha', 'beta', 'announce');
    config = nodeServer('lazy', fixture('lazy-server.mjs'), [toolsFile], { env: { FIXTURE_START_LOG: startLog } });
  });
  afterEach(async () => {
    await disposeAll();
    await rm(dir, { recursive: true, force: true });
  });

  async function listTools(...names: string[]): Promise<void> {
    await writeFile(toolsFile, JSON.stringify(names));
  }

  async function starts(): Promise<number> {
    return existsSync(startLog) ? (await readFile(startLog, 'utf8')).split('\n').filter(Boolean).length : 0;
  }

  async function cachedToolNames(): Promise<string[]> {
    const files = await readdir(cacheDir);
    assert.equal(files.length, 1, `cache files: ${files.join(', ')}`);
    const file = JSON.parse(await readFile(join(cacheDir, files[0] ?? ''), 'utf8')) as { tools: { name: string }[] };
    return file.tools.map((t) => t.name);
  }

  /** A manager as at activation, with the cache folder and the server resting as given. */
  function activate(resting: RestingServers = idle('lazy'), configs: readonly StdioServerConfig[] = [config], trusted = true): McpManager {
    const { manager: m } = manager({ catalogueCacheDir: cacheDir, listChangedDebounceMs: 20, workspaceTrusted: trusted });
    m.applyConfig(configs, resting);
    return m;
  }

  /** Runs the server once so its catalogue is cached, as a previous VS Code session would. */
  async function warmCache(configs: readonly StdioServerConfig[] = [config]): Promise<void> {
    const m = activate(idle(), configs);
    await m.whenIdle();
    await m.dispose();
  }

  it('cold cache: a server with no tool on starts at activation and its catalogue is written', async () => {
    const m = activate();
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    assert.equal(await starts(), 1);
    await m.dispose();
    assert.deepEqual(await cachedToolNames(), ['alpha', 'beta', 'announce']);
    const [file] = await readdir(cacheDir);
    const written = JSON.parse(await readFile(join(cacheDir, file ?? ''), 'utf8')) as { server: unknown; listedAt: string };
    assert.deepEqual(written.server, { name: 'lazy', version: '1.0.0' });
    assert.ok(Date.now() - Date.parse(written.listedAt) < 30_000);
  });

  it('warm cache: no process at activation, tools listed from the cache; a call starts the server and runs', async () => {
    await warmCache();
    const listedBefore = (await readdir(cacheDir)).length;
    const m = activate();
    await m.whenIdle();
    assert.equal(await starts(), 1, 'only the warm-up run started it');
    const status = m.status('lazy');
    assert.equal(status?.state, 'idle');
    assert.equal(status?.pid, undefined);
    assert.equal(status?.toolCount, 3);
    assert.ok(status?.catalogueListedAt !== undefined && Date.now() - status.catalogueListedAt < 30_000);
    assert.match(status?.reason ?? '', /none of its tools is on, so it starts when one of them is called/);
    assert.deepEqual(m.tools().map((t) => t.name), ['lazy__alpha', 'lazy__beta', 'lazy__announce']);
    assert.ok(m.runningServers().has('lazy'), 'its tools are permitted');
    assert.ok(m.idleServers().has('lazy'));
    assert.equal(listedBefore, 1);

    assert.equal(textOf(await m.call('lazy__beta', { text: 'x' }, signal())), 'beta ran');
    assert.equal(m.status('lazy')?.state, 'running');
    assert.equal(await starts(), 2);
  });

  it('two calls while it wakes start one process, and its tools stay listed meanwhile', async () => {
    await warmCache();
    const m = activate();
    await m.whenIdle();
    let unlisted = false;
    m.onDidChange(() => {
      if (m.tools().length !== 3) unlisted = true;
    });
    const results = await Promise.all([m.call('lazy__alpha', {}, signal()), m.call('lazy__beta', {}, signal())]);
    assert.deepEqual(results.map(textOf), ['alpha ran', 'beta ran']);
    assert.equal(await starts(), 2);
    assert.equal(unlisted, false);
  });

  it('a tool the started server no longer lists: a clear error naming tool and server, nothing run; the cache follows the live list', async () => {
    await warmCache();
    await listTools('alpha', 'announce');
    const m = activate();
    await m.whenIdle();
    assert.ok(m.tools().some((t) => t.name === 'lazy__beta'), 'still in the cached catalogue');
    const result = await m.call('lazy__beta', {}, signal());
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'The tool "beta" was not run: MCP server "lazy" no longer has it. It was in the catalogue the server listed last time, but now that it has started it lists 2 tools and not this one. Find another tool (search_tools) or tell the user.');
    assert.deepEqual(m.tools().map((t) => t.name), ['lazy__alpha', 'lazy__announce']);
    await m.dispose();
    assert.deepEqual(await cachedToolNames(), ['alpha', 'announce']);
  });

  it('list_changed rewrites the cache, and the next activation lists the new tools', async () => {
    const m = activate(idle());
    await m.whenIdle();
    await listTools('alpha', 'gamma', 'announce');
    await m.call('lazy__announce', {}, signal());
    await waitFor('gamma to be listed', () => m.tools().some((t) => t.name === 'lazy__gamma'));
    await m.dispose();
    assert.deepEqual(await cachedToolNames(), ['alpha', 'gamma', 'announce']);
    const next = activate();
    await next.whenIdle();
    assert.equal(next.status('lazy')?.state, 'idle');
    assert.deepEqual(next.tools().map((t) => t.name), ['lazy__alpha', 'lazy__gamma', 'lazy__announce']);
  });

  it('a changed launch configuration (args) finds no cached catalogue: the server starts, at activation or when edited', async () => {
    await warmCache();
    const changed = { ...config, args: [...config.args, 'extra'] };
    const m = activate(idle('lazy'), [changed]);
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    assert.equal(await starts(), 2);
    await m.dispose();

    const edited = activate();
    await edited.whenIdle();
    assert.equal(edited.status('lazy')?.state, 'idle');
    edited.applyConfig([{ ...config, env: { ...config.env, FIXTURE_VERSION: '2.0.0' } }]);
    await edited.whenIdle();
    assert.equal(edited.status('lazy')?.state, 'running');
    assert.equal(await starts(), 3);
  });

  it('an idle server lists exactly the definitions its live start listed, a cut description included', async () => {
    const huge = nodeServer('huge', fixture('huge-description-server.mjs'));
    const { manager: live } = manager({ catalogueCacheDir: cacheDir, maxDescriptionChars: 1000 });
    live.applyConfig([huge]);
    await live.whenIdle();
    const listed = live.tools();
    assert.match(listed[0]?.description ?? '', /\[description truncated: /);
    await live.dispose();
    const { manager: m } = manager({ catalogueCacheDir: cacheDir, maxDescriptionChars: 1000 });
    m.applyConfig([huge], idle('huge'));
    await m.whenIdle();
    assert.equal(m.status('huge')?.state, 'idle');
    assert.deepEqual(m.tools(), listed);
  });

  it('a corrupt cache file is logged and ignored: the server starts and rewrites it', async () => {
    await warmCache();
    const [file] = await readdir(cacheDir);
    await writeFile(join(cacheDir, file ?? ''), '{"format": 1, "tools": [');
    const { manager: m, log } = manager({ catalogueCacheDir: cacheDir });
    m.applyConfig([config], idle('lazy'));
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    assert.ok(log.lines.some((l) => /^warn \[lazy\] ignoring its cached tool catalogue .* \(not JSON: .*\); the server will start to list its tools$/.test(l)));
    await m.dispose();
    assert.deepEqual(await cachedToolNames(), ['alpha', 'beta', 'announce']);
  });

  it('a server not in the idle set (a tool on, or quiver.mcp.eagerServers) starts at activation despite a warm cache', async () => {
    await warmCache();
    const m = activate(idle());
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    assert.equal(await starts(), 2);
  });

  it('leaving the idle set starts it; joining it again leaves it running', async () => {
    await warmCache();
    const m = activate();
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'idle');
    m.setResting(idle());
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    m.setResting(idle('lazy'));
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    assert.equal(await starts(), 2);
  });

  it('a server whose tools are turned back on or discoverable after being all off starts, cache or not', async () => {
    await warmCache();
    const m = activate({ off: new Set(['lazy']), idle: new Set(['lazy']) });
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'off');
    assert.deepEqual(m.tools(), []);
    m.setResting(idle('lazy'));
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
    assert.equal(await starts(), 2);
  });

  it('ensureRunning (/use) and Restart start an idle server; Restart All leaves it idle', async () => {
    await warmCache();
    const m = activate();
    await m.whenIdle();
    await m.restartAll();
    assert.equal(m.status('lazy')?.state, 'idle');
    await m.ensureRunning('lazy');
    assert.equal(m.status('lazy')?.state, 'running');
    await m.dispose();

    const again = activate();
    await again.whenIdle();
    await again.restart('lazy');
    assert.equal(again.status('lazy')?.state, 'running');
    assert.equal(await starts(), 3);
  });

  it('a call aborted while the server wakes rejects at once; the server still comes up', async () => {
    await warmCache();
    const m = activate();
    await m.whenIdle();
    const stop = new AbortController();
    const call = m.call('lazy__alpha', {}, stop.signal);
    stop.abort();
    await assert.rejects(call, { name: 'AbortError' });
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'running');
  });

  it('a server that cannot start when called: the call says why, and it is not listed while failed', async () => {
    await warmCache();
    const m = activate();
    await m.whenIdle();
    await rm(toolsFile);
    const result = await m.call('lazy__alpha', {}, signal());
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^The tool "alpha" of MCP server "lazy" did not run: the server could not start: failed to start: .*ENOENT/s);
    assert.equal(m.status('lazy')?.state, 'failed');
    assert.deepEqual(m.tools(), []);
  });

  it('an untrusted workspace server neither starts nor lists its cached tools; trust lets it idle on them', async () => {
    const workspace = { ...config, source: { kind: 'mcpJson' as const, file: '/repo/.vscode/mcp.json' } };
    await warmCache([workspace]);
    const m = activate(idle('lazy'), [workspace], false);
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'stopped');
    assert.match(m.status('lazy')?.reason ?? '', /the workspace is not trusted/);
    assert.deepEqual(m.tools(), []);
    assert.ok(!m.runningServers().has('lazy'));
    assert.equal((await m.call('lazy__alpha', {}, signal())).isError, true);
    assert.equal(await starts(), 1);

    m.setWorkspaceTrusted(true);
    await m.whenIdle();
    assert.equal(m.status('lazy')?.state, 'idle');
    assert.equal(m.tools().length, 3);
    assert.equal(await starts(), 1);
  });

  it('dispose stops a server woken by a call', async () => {
    await warmCache();
    const m = activate();
    await m.whenIdle();
    await m.call('lazy__alpha', {}, signal());
    const pid = m.status('lazy')?.pid;
    await m.dispose();
    await assertGone(pid);
  });
});
