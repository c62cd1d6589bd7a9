import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { SERVER_NICENESS } from '../../../src/mcp/connection';
import type { ServerStatus } from '../../../src/mcp/lifecycle';
import { assertGone, disposeAll, fixture, isGone, manager, nodeServer, offOnly, signal, textOf, waitFor } from './helpers';

describe('MCP manager lifecycle', () => {
  afterEach(disposeAll);

  it('starts servers without blocking the caller and reports starting then running', async () => {
    const { manager: m } = manager();
    const events: ServerStatus[] = [];
    m.onDidChangeStatus((s) => events.push(s));
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))]);
    assert.equal(m.status('faulty')?.state, 'starting');
    assert.deepEqual(m.tools(), []);
    await m.whenIdle();
    const status = m.status('faulty');
    assert.equal(status?.state, 'running');
    assert.equal(status?.toolCount, 9);
    assert.deepEqual(events.map((e) => e.state), ['starting', 'running']);
    assert.ok(m.runningServers().has('faulty'));
    const pid = status?.pid;
    await m.dispose();
    await assertGone(pid);
  });

  it('runs a stdio server below normal CPU priority, so starting servers leave the editor its share', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))]);
    await m.whenIdle();
    const pid = m.status('faulty')?.pid;
    assert.ok(pid !== undefined);
    // A test runner already niced further than that passes its own, lower priority on (it cannot be raised).
    assert.equal(getPriority(pid), Math.max(SERVER_NICENESS, getPriority()));
  });

  it('marks a server that dies at start failed with its stderr, retrying with bounded backoff', async () => {
    const { manager: m, log } = manager({ restart: { maxAttempts: 2, initialDelayMs: 50, maxDelayMs: 100 } });
    const states: string[] = [];
    m.onDidChangeStatus((s) => states.push(s.state));
    m.applyConfig([nodeServer('dies', fixture('crash-on-start-server.mjs'))]);
    await waitFor('giving up', () => /Gave up after 2 automatic restarts/.test(m.status('dies')?.reason ?? ''));
    const status = m.status('dies');
    assert.equal(status?.state, 'failed');
    assert.match(status?.reason ?? '', /exited while starting\. Last output:\nfatal: FIXTURE_API_KEY is not set/);
    assert.deepEqual(states, ['starting', 'failed', 'starting', 'failed', 'starting', 'failed']);
    assert.ok(log.lines.some((l) => l === 'info [dies] fatal: FIXTURE_API_KEY is not set'));
    await assertGone(status?.pid);
  });

  it('fails a server that hangs past the startup timeout and kills it', async () => {
    const { manager: m } = manager({ startupTimeoutMs: 700 });
    m.applyConfig([nodeServer('slow', fixture('hang-on-start-server.mjs'))]);
    await waitFor('the server process', () => m.status('slow')?.pid !== undefined);
    const pid = m.status('slow')?.pid;
    await m.whenIdle();
    assert.equal(m.status('slow')?.state, 'failed');
    assert.match(m.status('slow')?.reason ?? '', /did not finish starting within 0\.7 s; raise quiver\.mcp\.startupTimeoutMs .*Last output:\nwarming up forever/s);
    await assertGone(pid);
  });

  it('reports a missing command without retrying', async () => {
    const { manager: m } = manager({ restart: { maxAttempts: 3, initialDelayMs: 10 } });
    m.applyConfig([{ ...nodeServer('missing', 'x'), command: 'quiver-no-such-command' }]);
    await m.whenIdle();
    assert.equal(m.status('missing')?.state, 'failed');
    assert.match(m.status('missing')?.reason ?? '', /could not run "quiver-no-such-command": command not found\. Check "command" in user settings/);
    assert.equal(m.status('missing')?.restarts, 0);
  });

  it('a crash during a call: clear error, tools leave at once, restart brings them back', async () => {
    const { manager: m } = manager({ restart: { maxAttempts: 1, initialDelayMs: 300 } });
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))]);
    await m.whenIdle();
    const firstPid = m.status('faulty')?.pid;
    let sawEmptyCatalogue = false;
    m.onDidChange(() => {
      if (m.status('faulty')?.state === 'failed' && m.tools().length === 0) sawEmptyCatalogue = true;
    });
    const result = await m.call('faulty__crash', {}, signal());
    assert.equal(result.isError, true);
    assert.match(textOf(result), /The tool "crash" of MCP server "faulty" could not finish: the server stopped during the call\. Its last output:\n.*fatal: simulated crash/s);
    await waitFor('failed status', () => m.status('faulty')?.state !== 'running');
    assert.equal(m.status('faulty')?.state, 'failed');
    assert.match(m.status('faulty')?.reason ?? '', /exited unexpectedly\. Last output:\n.*fatal: simulated crash.*\nRestarting in 0\.3 s \(attempt 1 of 1\)/s);
    assert.ok(sawEmptyCatalogue);
    assert.equal(m.tools().length, 0);
    assert.equal((await m.call('faulty__echo', { text: 'x' }, signal())).isError, true);
    await assertGone(firstPid);
    await waitFor('restart', () => m.status('faulty')?.state === 'running');
    assert.notEqual(m.status('faulty')?.pid, firstPid);
    assert.equal(textOf(await m.call('faulty__echo', { text: 'back' }, signal())), 'echo: back');
  });

  it('applyConfig restarts only servers whose config changed and stops removed ones', async () => {
    const { manager: m } = manager();
    const a = nodeServer('a', fixture('named-tools-server.mjs'), ['one']);
    const b = nodeServer('b', fixture('named-tools-server.mjs'), ['two']);
    const c = nodeServer('c', fixture('named-tools-server.mjs'), ['three']);
    m.applyConfig([a, b, c]);
    await m.whenIdle();
    const pids = Object.fromEntries(m.statuses().map((s) => [s.name, s.pid]));
    m.applyConfig([{ ...a, env: {} }, { ...b, args: [...b.args, 'extra'] }]);
    await m.whenIdle();
    assert.equal(m.status('a')?.pid, pids.a, 'unchanged server keeps its process');
    assert.notEqual(m.status('b')?.pid, pids.b, 'changed server restarted');
    assert.equal(m.status('c'), undefined);
    assert.deepEqual(m.tools().map((t) => t.name), ['a__one', 'b__two', 'b__extra']);
    await assertGone(pids.b);
    await assertGone(pids.c);
  });

  it('restart() replaces the process; restartAll() restarts every server', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('a', fixture('named-tools-server.mjs'), ['one']), nodeServer('b', fixture('named-tools-server.mjs'), ['two'])]);
    await m.whenIdle();
    const before = m.statuses().map((s) => s.pid);
    await m.restart('a');
    assert.equal(m.status('a')?.state, 'running');
    assert.notEqual(m.status('a')?.pid, before[0]);
    assert.equal(m.status('b')?.pid, before[1]);
    await m.restartAll();
    assert.ok(m.statuses().every((s, i) => s.state === 'running' && s.pid !== before[i]));
    for (const pid of before) await assertGone(pid);
  });

  it('does not start workspace servers in an untrusted workspace until trust is granted', async () => {
    const { manager: m } = manager({ workspaceTrusted: false });
    m.applyConfig([
      nodeServer('mine', fixture('named-tools-server.mjs'), ['one']),
      nodeServer('repo', fixture('named-tools-server.mjs'), ['two'], { source: { kind: 'mcpJson', file: '/repo/.vscode/mcp.json' } }),
    ]);
    await m.whenIdle();
    assert.equal(m.status('mine')?.state, 'running');
    assert.equal(m.status('repo')?.state, 'stopped');
    assert.match(m.status('repo')?.reason ?? '', /the workspace is not trusted and this server comes from \/repo\/.vscode\/mcp.json/);
    assert.equal(m.status('repo')?.pid, undefined);
    await assert.rejects(m.ensureRunning('repo'), /not trusted/);
    m.setWorkspaceTrusted(true);
    await m.whenIdle();
    assert.equal(m.status('repo')?.state, 'running');
    assert.deepEqual(m.tools().map((t) => t.name), ['mine__one', 'repo__two']);
  });

  it('dispose() kills the whole process tree, grandchildren included', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))]);
    await m.whenIdle();
    const pid = m.status('faulty')?.pid;
    const grandchild = Number(textOf(await m.call('faulty__spawn_child', {}, signal())));
    assert.ok(!isGone(grandchild));
    await m.dispose();
    await assertGone(pid);
    await assertGone(grandchild);
    assert.equal(m.status('faulty')?.state, 'stopped');
  });

  it('ensureRunning starts a failed server again and rejects with the reason if it cannot', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('dies', fixture('crash-on-start-server.mjs'))]);
    await m.whenIdle();
    await assert.rejects(m.ensureRunning('dies'), /MCP server "dies" is not running: exited while starting/);
    await assert.rejects(m.ensureRunning('nope'), /No MCP server named "nope"/);
  });

  it('leaves a server whose tools are all off unstarted, starts it when one is permitted, stops it when all are off again', async () => {
    const { manager: m } = manager();
    m.setResting(offOnly(['faulty']));
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs')), nodeServer('other', fixture('faulty-tools-server.mjs'))]);
    await m.whenIdle();
    assert.equal(m.status('faulty')?.state, 'off');
    assert.equal(m.status('faulty')?.pid, undefined);
    assert.match(m.status('faulty')?.reason ?? '', /every tool of this server is off in quiver\.tools\. Make it on or discoverable/);
    assert.equal(m.status('other')?.state, 'running');
    assert.ok(m.tools().every((t) => t.server === 'other'));

    m.setResting(offOnly());
    await m.whenIdle();
    assert.equal(m.status('faulty')?.state, 'running');
    const pid = m.status('faulty')?.pid;
    assert.ok(pid !== undefined);

    m.setResting(offOnly(['faulty']));
    assert.equal(m.status('faulty')?.state, 'off');
    assert.ok(m.tools().every((t) => t.server === 'other'));
    await assertGone(pid);
  });

  it('starts an off server on demand (a forced tool, a restart) and keeps it up until it is turned off again; restartAll leaves it off', async () => {
    const { manager: m } = manager();
    m.setResting(offOnly(['faulty']));
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))]);
    await m.restartAll();
    assert.equal(m.status('faulty')?.state, 'off');

    await m.ensureRunning('faulty');
    assert.equal(m.status('faulty')?.state, 'running');
    m.setResting(offOnly(['faulty']));
    assert.equal(m.status('faulty')?.state, 'running', 'the same set again does not stop a server started on demand');

    const pid = m.status('faulty')?.pid;
    m.setResting(offOnly());
    m.setResting(offOnly(['faulty']));
    assert.equal(m.status('faulty')?.state, 'off');
    await assertGone(pid);

    await m.restart('faulty');
    assert.equal(m.status('faulty')?.state, 'running', 'a restart by hand starts it');
  });

  it('lists servers left off with a test for their tool keys', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))], offOnly(['faulty']));
    const off = m.offServers();
    assert.deepEqual(off.map((s) => s.name), ['faulty']);
    assert.ok(off[0]?.ownsToolKey('faulty__crash'));
    assert.ok(!off[0]?.ownsToolKey('other__crash'));
    await m.ensureRunning('faulty');
    assert.deepEqual(m.offServers(), []);
  });

  it('a config change that also lets a server start launches it once, with the new config', async () => {
    const { manager: m } = manager();
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'))], offOnly(['faulty']));
    const states: string[] = [];
    m.onDidChangeStatus((s) => states.push(s.state));
    m.applyConfig([nodeServer('faulty', fixture('faulty-tools-server.mjs'), [], { env: { QUIVER_FIXTURE_CHANGED: '1' } })], offOnly());
    await m.whenIdle();
    assert.deepEqual(states, ['starting', 'running']);
  });

  it('a start on demand that fails leaves the server off: its automatic retry does not start it', async () => {
    const { manager: m } = manager({ restart: { maxAttempts: 1, initialDelayMs: 50, maxDelayMs: 50 } });
    m.applyConfig([nodeServer('dies', fixture('crash-on-start-server.mjs'))], offOnly(['dies']));
    await assert.rejects(m.ensureRunning('dies'), /exited while starting/);
    await waitFor('the retry to settle as off', () => m.status('dies')?.state === 'off');
  });
});

