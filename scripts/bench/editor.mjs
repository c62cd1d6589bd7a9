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

function serversSetting(opts, n) {
  const dir = join(opts.bench, 'catalogs');
  const server = resolve(opts.repoRoot, 'test', 'fixtures', 'mcp', 'catalogue-server.mjs');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, n);
  const tools = files.reduce((sum, f) => sum + JSON.parse(readFileSync(join(dir, f), 'utf8')).tools.length, 0);
  const servers = Object.fromEntries(files.map((f, i) => [`s${String(i).padStart(2, '0')}`, { command: process.execPath, args: [server, join(dir, f)] }]));
  return { servers, tools };
}

/** The last "start-up:" line Quiver logged, as numbers. */
function startupLog(dir) {
  const lines = spawnSync('grep', ['-rh', 'start-up:', join(dir, 'user-data', 'logs')], { encoding: 'utf8' }).stdout.trim().split('\n');
  const last = lines.at(-1) ?? '';
  const num = (re) => Number(re.exec(last)?.[1] ?? NaN);
  return { p99: num(/p99 ([\d.]+) ms/), max: num(/max ([\d.]+) ms/), allUp: num(/all up in ([\d.]+) ms/) };
}

async function measure(opts, n) {
  const { servers, tools } = serversSetting(opts, n);
  const dir = mkdtempSync(join(tmpdir(), 'quiver-bench-editor-'));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'notes.txt'), 'bench\n');
  const userSettings = { ...QUIET_SETTINGS, 'quiver.mcpServers': servers, 'quiver.tools': { '*': { enable: 'discoverable' } } };
  const editor = await startEditor({ dir, userSettings });
  try {
    const browser = await launchBrowser(dir);
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(180_000);
      await page.goto(editor.url(ws, [['extensionDevelopmentPath', editor.remote(opts.repoRoot)]]));
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
      const expected = new RegExp(`· ${tools} discoverable ·`);
      if (n > 0) await page.locator(STATUS).filter({ hasText: expected }).waitFor();
      const allUp = performance.now() - opened;
      await page.close();
      return { n, tools, usable, allUp, ...startupLog(dir) };
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
    const r = await measure(opts, n);
    rows.push([r.n, r.tools, Math.round(r.usable), Math.round(r.allUp), Number.isNaN(r.p99) ? '—' : r.p99.toFixed(0), Number.isNaN(r.max) ? '—' : r.max.toFixed(0)]);
  }
  return {
    title: 'Start-up in the real editor (code-server + Chromium): N catalogue servers in User settings, every tool discoverable',
    columns: ['servers', 'tools', 'chat typable ms after the panel opens (servers starting)', 'all servers up ms after it opens', 'host loop delay p99 ms', 'max ms'],
    rows,
    notes: [
      'A fresh editor profile per row, so every catalogue cache is cold and every server starts (the eager path; the in-process table above has the idle rows).',
      'Loop delay: the extension host\'s own monitorEventLoopDelay from activation until every server is up, as Quiver logs it ("start-up: …" in the Quiver log); the host also runs VS Code\'s built-in extensions.',
    ],
  };
}
