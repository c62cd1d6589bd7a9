// Start-up in the real editor: code-server with Quiver (this folder, built) and N harvested
// catalogues configured in User settings.json as real stdio servers (catalogue-server.mjs), every
// tool discoverable. Measured in Chromium from the moment the Quiver panel is opened: until the
// chat's message box is visible and typable, and until the status bar counts every tool (all
// servers up); and the extension host's own event-loop delay over start-up, which Quiver writes to
// its log ("start-up: …"). Needs Debian's chromium and the e2e editor (installed on first use);
// `--no-editor` skips this section. Run `npx tsc -p .` first (npm run bench does); the production
// bundle is built here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchBrowser } from '../e2e/browser.mjs';
import { QUIET_SETTINGS, startEditor } from '../e2e/editor.mjs';

const ICON = '.activitybar a.action-label[aria-label^="Quiver"]';
const STATUS = '[id="quiver-dev.quiver.quiver.overhead"]';
const OUTER = 'iframe.webview.ready[src*="extensionId=quiver-dev.quiver"]';
const EXPLORER = '.activitybar a.action-label[aria-label^="Explorer"]';

function serversSetting(opts, n) {
  const dir = join(opts.bench, 'catalogs');
  const server = resolve(opts.repoRoot, 'test', 'fixtures', 'mcp', 'catalogue-server.mjs');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, n);
  const tools = files.reduce((sum, f) => sum + JSON.parse(readFileSync(join(dir, f), 'utf8')).tools.length, 0);
  const servers = Object.fromEntries(files.map((f, i) => [`s${String(i).padStart(2, '0')}`, { command: process.execPath, args: [server, join(dir, f)] }]));
  return { servers, tools };
}

/** Every "start-up:" line Quiver logged so far, oldest first (lines begin with their time). */
function startupLines(dir) {
  return spawnSync('grep', ['-rh', 'start-up:', join(dir, 'user-data', 'logs')], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).sort();
}

/**
 * The measured window's start-up line, as numbers: the first logged after the `before` lines of
 * earlier windows (the log is written a moment after the last server is up).
 */
async function startupLogAfter(dir, before) {
  for (let i = 0; i < 50; i++) {
    const line = startupLines(dir)[before];
    if (line !== undefined) {
      const num = (re) => Number(re.exec(line)?.[1] ?? NaN);
      return { p99: num(/p99 ([\d.]+) ms/), max: num(/max ([\d.]+) ms/), idle: num(/(\d+) idle/) };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Quiver logged no start-up line for the measured window');
}

/**
 * Opens a window, waits until Quiver has activated (its status bar item), opens the panel and
 * times it: until the chat's message box takes typing, and until the status bar counts every tool.
 */
async function timeWindow(page, url, n, tools) {
  await page.goto(url);
  await page.locator(ICON).waitFor();
  // Quiver activates when the window has started (its status bar item appears) and launches
  // the servers then; the panel opens while they start. Opening it earlier measures the
  // workbench's own start-up instead (4.3 s here, with or without servers).
  await page.locator(STATUS).waitFor();
  const opened = performance.now();
  await page.locator(ICON).click();
  const box = page.frameLocator(OUTER).frameLocator('iframe#active-frame').getByRole('textbox', { name: 'Message' });
  await box.waitFor({ state: 'visible' });
  await box.fill('typed');
  const usable = performance.now() - opened;
  if (n > 0) await page.locator(STATUS).filter({ hasText: new RegExp(`· ${tools} discoverable ·`) }).waitFor();
  return { usable, allUp: performance.now() - opened };
}

/**
 * One row. `warm`: the editor and browser profile have opened a window with Quiver's panel before
 * (VS Code's webview machinery is set up, as for anyone past their first launch), with no server
 * configured; the servers are then added to User settings and a new window opens, so every server
 * still starts cold (no cached catalogue). Otherwise everything is fresh, the first launch ever.
 */
async function measure(opts, n, warm) {
  const { servers, tools } = serversSetting(opts, n);
  const dir = mkdtempSync(join(tmpdir(), 'quiver-bench-editor-'));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'notes.txt'), 'bench\n');
  const withServers = { ...QUIET_SETTINGS, 'quiver.mcpServers': servers, 'quiver.tools': { '*': { enable: 'discoverable' } } };
  const editor = await startEditor({ dir, userSettings: warm ? { ...QUIET_SETTINGS, 'quiver.tools': { '*': { enable: 'discoverable' } } } : withServers });
  const url = editor.url(ws, [['extensionDevelopmentPath', editor.remote(opts.repoRoot)]]);
  try {
    const browser = await launchBrowser(dir);
    try {
      if (warm) {
        const first = await browser.newPage();
        first.setDefaultTimeout(180_000);
        await timeWindow(first, url, 0, 0);
        // Leave the panel closed, so the next window opens it by the click that is timed.
        await first.locator(EXPLORER).click();
        await first.waitForTimeout(1_500);
        await first.close();
        // Its extension host outlives the window by code-server's reconnection grace (5 s): one still
        // running would start the servers on the settings change and leave their catalogues cached.
        await new Promise((r) => setTimeout(r, 8_000));
        writeFileSync(join(dir, 'user-data', 'User', 'settings.json'), JSON.stringify(withServers, null, 2) + '\n');
      }
      const before = startupLines(dir).length;
      const page = await browser.newPage();
      page.setDefaultTimeout(180_000);
      const timed = await timeWindow(page, url, n, tools);
      const logged = await startupLogAfter(dir, before);
      if (logged.idle > 0) throw new Error(`servers slept on cached catalogues instead of starting cold: ${JSON.stringify(logged)}`);
      await page.close();
      return { n, tools, ...timed, p99: logged.p99, max: logged.max };
    } finally {
      await browser.close();
    }
  } finally {
    await editor.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(opts) {
  if (opts.noEditor) return [];
  // The production build, minified, as `npm run package` makes it for users.
  spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: opts.repoRoot, stdio: 'ignore' });
  const rows = [];
  // N = 0 is the floor: what loading the chat webview costs in this editor with no server at all.
  for (const n of opts.quick ? [0, 71] : [0, 6, 20, 71]) {
    const fresh = await measure(opts, n, false);
    const warm = await measure(opts, n, true);
    const ms = (x) => (Number.isNaN(x) ? '—' : x.toFixed(0));
    const upFirst = n === 0 ? '—' : Math.round(fresh.allUp);
    const upLater = n === 0 ? '—' : Math.round(warm.allUp);
    rows.push([n, fresh.tools, Math.round(fresh.usable), Math.round(warm.usable), upFirst, upLater, `${ms(fresh.p99)} / ${ms(warm.p99)}`, `${ms(fresh.max)} / ${ms(warm.max)}`]);
  }
  return {
    title: 'Start-up in the real editor (code-server + Chromium): N catalogue servers in User settings, every tool discoverable',
    columns: ['servers', 'tools', 'chat typable ms after the panel opens: first launch', 'later launch', 'all servers up ms: first launch', 'later launch', 'host loop delay p99 ms (first / later)', 'max ms'],
    rows,
    notes: [
      'First launch: a fresh editor and browser profile with the servers configured; VS Code sets up its webview machinery (a service worker per browser profile) while the panel loads, about 2 s here with no server at all. Later launch: the same profile opened a window with the panel before, without servers; the servers were then added to User settings, so each still starts cold. Every catalogue cache is cold in both (the eager path; the in-process table above has the idle rows).',
      'Loop delay: the extension host\'s own monitorEventLoopDelay from activation until every server is up, as Quiver logs it ("start-up: …" in the Quiver log); the host also runs VS Code\'s built-in extensions.',
    ],
  };
}
