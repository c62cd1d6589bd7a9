// The e2e tier: Quiver in a real VS Code (code-server) driven by headless Chromium.
//   (a) host: the Mocha suite out/test/e2e/suite (compiled from test/e2e/suite) inside the
//       extension host, loaded by the `extensionTestsPath` payload;
//   (b) ui: test/e2e/ui/*.ui.mjs against the workbench, one screenshot per test;
//   (c) cleanup: after the server is stopped no process of the session may be left.
// `npm test` calls runE2e() (after tsc and esbuild); `npm test -- e2e` runs only this tier;
// `node scripts/e2e/run.mjs` compiles, bundles and runs it alone.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { launchBrowser } from './browser.mjs';
import { QUIET_SETTINGS, ROOT, ensureEditor, startEditor } from './editor.mjs';
import { collectUiTests, runUiTests } from './ui-harness.mjs';

const SUITE = join(ROOT, 'out', 'test', 'e2e', 'suite', 'index.js');
const SCRIPTED_API = join(ROOT, 'out', 'test', 'fixtures', 'scriptedMessagesApi.js');
const require = createRequire(import.meta.url);
const FIXTURE = join(ROOT, 'test', 'e2e', 'workspace');
const ARTIFACTS = join(ROOT, '.test-artifacts');
const SCREENSHOTS = join(ARTIFACTS, 'screenshots');
const HOST_TIMEOUT_MS = 300_000;

const log = (msg) => console.log(`[e2e] ${msg}`);
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

/** A fresh copy of the fixture workspace with @REPO@ replaced by this repository's path. */
function workspaceCopy(sessionDir, name) {
  const ws = join(sessionDir, name);
  cpSync(FIXTURE, ws, { recursive: true });
  const settings = join(ws, '.vscode', 'settings.json');
  writeFileSync(settings, readFileSync(settings, 'utf8').replaceAll('@REPO@', ROOT));
  return ws;
}

/** (a) Runs the extension-host Mocha suite; resolves to { passed, failed, pending, failures }. */
async function runHostSuite(browser, editor, ws) {
  const reportFile = join(editor.dir, 'host-report.json');
  const consoleLog = join(ARTIFACTS, 'e2e-host-console.log');
  const lines = [];
  const page = await browser.newPage();
  page.on('console', (m) => lines.push(`[${m.type()}] ${m.text()}`));
  let exited;
  const exitCode = new Promise((done) => { exited = done; });
  await page.exposeFunction('codeAutomationExit', (code) => { exited(code); });
  const url = editor.url(ws, [
    ['extensionDevelopmentPath', editor.remote(ROOT)],
    ['extensionTestsPath', editor.remote(SUITE)],
    ['extensionEnvironment', JSON.stringify({ QUIVER_E2E_REPORT: reportFile })],
  ]);
  await page.goto(url);
  let timer;
  const code = await Promise.race([exitCode, new Promise((done) => { timer = setTimeout(() => done('timeout'), HOST_TIMEOUT_MS); })]);
  clearTimeout(timer);
  writeFileSync(consoleLog, lines.join('\n') + '\n');
  await page.close();
  if (!existsSync(reportFile)) {
    const why = code === 'timeout' ? `the suite did not finish within ${HOST_TIMEOUT_MS / 1000} s` : `the workbench exited with ${code} and no report`;
    return { passed: 0, failed: 1, pending: 0, failures: [{ title: 'extension-host suite', error: `${why}; page console: ${relative(ROOT, consoleLog)}` }] };
  }
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  cpSync(reportFile, join(ARTIFACTS, 'e2e-host-report.json'));
  const printed = new Set();
  for (const t of report.tests ?? []) {
    if (t.state === 'passed') console.log(`  ✔ ${t.title} (${t.ms} ms)`);
    else if (t.state === 'pending') console.log(`  - ${t.title} (pending)`);
    else {
      const f = report.failures.find((x) => x.title === t.title && !printed.has(x));
      printed.add(f);
      console.log(`  ✖ ${t.title} (${t.ms} ms)\n      ${(f?.error ?? '').split('\n').slice(0, 8).join('\n      ')}`);
    }
  }
  for (const f of report.failures.filter((x) => !printed.has(x))) console.log(`  ✖ ${f.title}\n      ${f.error.split('\n').slice(0, 8).join('\n      ')}`);
  if (report.failed === 0 && code !== 0) report.failures.push({ title: 'extension-host suite', error: `exit code ${code}` });
  return report;
}

/**
 * (b) Runs the workbench UI tests. Each test file gets its own copy of the workspace and its own
 * workbench page (so its own extension host), so no file depends on what another left behind.
 * ctx = { page, workspace, settingsFile, userSettingsFile, scripted, scriptedModule }: `scripted` is
 * the scripted Messages API that the user settings' quiver.anthropic.baseUrl points at.
 */
async function runUi(browser, editor, scripted, scriptedModule) {
  const tests = await collectUiTests(join(ROOT, 'test', 'e2e', 'ui'));
  const lines = [];
  const open = async (file) => {
    const ws = workspaceCopy(editor.dir, `ws-ui-${file}`);
    const page = await browser.newPage();
    page.on('console', (m) => lines.push(`[${file}] [${m.type()}] ${m.text()}`));
    page.setDefaultTimeout(20_000);
    await page.goto(editor.url(ws, [['extensionDevelopmentPath', editor.remote(ROOT)]]));
    await page.locator('.monaco-workbench').waitFor();
    const userSettingsFile = join(editor.dir, 'user-data', 'User', 'settings.json');
    return { ctx: { page, workspace: ws, settingsFile: join(ws, '.vscode', 'settings.json'), userSettingsFile, scripted, scriptedModule }, close: () => page.close() };
  };
  try {
    // Replies a test scripted and never had played would answer the next test's requests. (A test
    // that timed out is not stopped, so its turn may still ask for one: best effort.)
    const afterEach = async () => {
      const left = scripted.discardRemaining();
      return left > 0 ? `left ${left} scripted repl${left === 1 ? 'y' : 'ies'} unplayed (discarded, so the next test starts clean)` : undefined;
    };
    return await runUiTests(tests, open, { screenshots: SCREENSHOTS, root: ROOT, afterEach });
  } finally {
    writeFileSync(join(ARTIFACTS, 'e2e-ui-console.log'), lines.join('\n') + '\n');
  }
}

/** Keeps the editor's logs (extension host, server) in .test-artifacts/e2e-logs/. */
function saveLogs(editor) {
  const to = join(ARTIFACTS, 'e2e-logs');
  rmSync(to, { recursive: true, force: true });
  try {
    cpSync(join(editor.dir, 'user-data', 'logs'), to, { recursive: true });
    cpSync(editor.logFile, join(to, 'code-server.log'));
  } catch { /* nothing logged yet */ }
}

export async function runE2e() {
  const t0 = Date.now();
  const counts = {};
  const total = { passed: 0, failed: 0 };
  const tally = (tier, r) => {
    counts[tier] = r;
    total.passed += r.passed;
    total.failed += r.failed;
  };
  console.log('\n▶ e2e tests (code-server + Chromium)');
  for (const [what, file] of [['the e2e suite (tsc)', SUITE], ['the scripted Messages API (tsc)', SCRIPTED_API], ['the extension bundle (esbuild)', join(ROOT, 'dist', 'extension.js')]]) {
    if (!existsSync(file)) {
      console.error(`✖ e2e: ${relative(ROOT, file)} is missing; build ${what} first (npm test does both).`);
      return { passed: 0, failed: 1 };
    }
  }
  ensureEditor();
  mkdirSync(ARTIFACTS, { recursive: true });
  // QUIVER_E2E_ONLY=host runs the extension-host suite alone (a quicker loop while working on it).
  const hostOnly = process.env.QUIVER_E2E_ONLY === 'host';
  if (!hostOnly) rmSync(SCREENSHOTS, { recursive: true, force: true });
  const scriptedModule = require(SCRIPTED_API);
  const scripted = await scriptedModule.ScriptedMessagesApi.start();
  // User settings only, as a user writes them: quiver.anthropic.baseUrl is application-scoped, so
  // code-server's remote extension host reads it from there and a workspace cannot set it.
  const editor = await startEditor({ userSettings: { ...QUIET_SETTINGS, 'quiver.anthropic.baseUrl': scripted.url } });
  log(`code-server on 127.0.0.1:${editor.port} (started ${secs(t0)}); scripted Messages API on ${scripted.url}`);
  try {
    const browser = await launchBrowser(editor.dir);
    try {
      let t = Date.now();
      // QUIVER_E2E_ONLY=chat,errors names UI test files: those run, and the extension-host suite does not.
      if (hostOnly || !process.env.QUIVER_E2E_ONLY) {
        log('extension-host suite');
        tally('host', await runHostSuite(browser, editor, workspaceCopy(editor.dir, 'ws-host')));
        log(`extension-host suite done in ${secs(t)}`);
      }
      if (!hostOnly) {
        t = Date.now();
        log('UI tests');
        tally('ui', await runUi(browser, editor, scripted, scriptedModule));
        log(`UI tests done in ${secs(t)}; screenshots in ${relative(ROOT, SCREENSHOTS)}/`);
      }
    } finally {
      await browser.close();
    }
  } catch (err) {
    tally('harness', { passed: 0, failed: 1, pending: 0, failures: [{ title: 'e2e harness', error: String(err) }] });
    console.error(`✖ e2e harness: ${err instanceof Error ? err.stack : String(err)}`);
  } finally {
    saveLogs(editor);
    const left = await editor.stop();
    await scripted.close();
    const ok = left.length === 0;
    tally('cleanup', { passed: ok ? 1 : 0, failed: ok ? 0 : 1, pending: 0, failures: [] });
    console.log(ok ? '  ✔ no code-server, extension host or MCP server process left behind'
      : `  ✖ ${left.length} process(es) outlived the editor's process group and were killed:\n${left.map((p) => `      ${p.pid} ${p.cmd}`).join('\n')}`);
  }
  console.log(`\ne2e (${secs(t0)}):`);
  log(`logs: ${relative(ROOT, ARTIFACTS)}/e2e-logs/ (extension host: exthost*/remoteexthost.log), page consoles: ${relative(ROOT, ARTIFACTS)}/e2e-*-console.log`);
  for (const [tier, c] of Object.entries(counts)) console.log(`  ${tier.padEnd(10)} ${c.passed} passed, ${c.failed} failed${c.pending ? `, ${c.pending} pending` : ''}`);
  return total;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const step = (args) => {
    const r = spawnSync('node', args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) process.exit(1);
  };
  step([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
  step(['esbuild.mjs']);
  const r = await runE2e();
  console.log(`\n${r.passed} passed, ${r.failed} failed`);
  process.exit(r.failed > 0 || r.passed === 0 ? 1 : 0);
}
