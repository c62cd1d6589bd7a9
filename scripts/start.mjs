// `npm start`: Quiver in a real VS Code (code-server) with the demo/ workspace.
// Builds Quiver, installs the editor on first run (.cache/), packages Quiver as a .vsix and
// installs it, starts code-server on 127.0.0.1, prints the URL and stays up until Ctrl-C.
//
//   npm start                 the packaged extension, as a user would run it
//   npm start -- --dev        load this folder as a development extension instead (no packaging)
//   npm start -- --fresh      forget the editor profile kept in .cache/start-profile
//   npm start -- --no-build   use dist/ as it is (e.g. kept fresh by `node esbuild.mjs --watch`)
//   QUIVER_PORT=8080 npm start
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, editorEnv, ensureEditor, sandboxEnv, startEditor } from './e2e/editor.mjs';

const dev = process.argv.includes('--dev');
const PROFILE = join(ROOT, '.cache', 'start-profile'); // kept between runs: settings, npx cache
const DEMO = join(ROOT, 'demo');
const VSIX = join(ROOT, '.cache', 'quiver-start.vsix');

function step(title, cmd, args, env = process.env) {
  console.log(`▶ ${title}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`✖ ${title} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

try {
  if (process.argv.includes('--fresh')) rmSync(PROFILE, { recursive: true, force: true });
  mkdirSync(PROFILE, { recursive: true });
  rmSync(join(PROFILE, 'tmp'), { recursive: true, force: true });
  if (!process.argv.includes('--no-build')) step('build Quiver (esbuild)', 'node', ['esbuild.mjs']);
  const editor = ensureEditor();
  const extensionsDir = join(PROFILE, 'extensions');
  if (!dev) {
    step('package Quiver (vsce)', 'node', [join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--out', VSIX]);
    step('install Quiver into code-server', editor.node, [editor.entry, '--install-extension', VSIX, '--force',
      '--extensions-dir', extensionsDir, '--user-data-dir', join(PROFILE, 'user-data')], sandboxEnv(PROFILE, editorEnv()));
  }
  const port = process.env.QUIVER_PORT ? Number(process.env.QUIVER_PORT) : undefined;
  const server = await startEditor({ dir: PROFILE, extensionsDir, smokeTestDriver: dev, handleSignals: false, port });
  const url = dev ? server.url(DEMO, [['extensionDevelopmentPath', server.remote(ROOT)]]) : server.url(DEMO);
  console.log(`\nQuiver is running in code-server ${editor.codeServer} (VS Code, Node ${editor.nodeVersion}).`);
  console.log(`Open:\n\n  ${url}\n`);
  console.log(`Workspace: ${DEMO}\nServer log: ${server.logFile}\nPress Ctrl-C to stop.`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping code-server …');
    const left = await server.stop();
    console.log(left.length === 0 ? 'Stopped; no process left behind.' : `Stopped; killed ${left.length} process(es) that had left the editor's process group.`);
    process.exit(0);
  };
  process.on('SIGINT', () => { void shutdown(); });
  process.on('SIGTERM', () => { void shutdown(); });
} catch (err) {
  console.error(`✖ npm start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
