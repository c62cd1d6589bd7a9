// Start-up at scale: N harvested catalogues (../shared/bench/catalogs), each served by a real
// stdio server process (test/fixtures/mcp/catalogue-server.mjs), started by the compiled MCP
// manager in this process, which also does what the extension host does on every change it is
// told of: rebuild the Tools view's overview over every tool (src/extension/liveToolsModel.ts).
// Rows: every server at once with a refresh per change (Quiver before 2026-12-01), and the
// start queue with refreshes batched per 100 ms (Quiver). Run `npx tsc -p .` first.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadCompiled as load } from './compiled.mjs';

const silent = { info() {}, warn() {}, error() {} };
const SETTINGS = { '*': { enable: 'discoverable' } };

function configs(opts, n) {
  const dir = join(opts.bench, 'catalogs');
  const server = resolve(opts.repoRoot, 'test', 'fixtures', 'mcp', 'catalogue-server.mjs');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, n).map((file, i) => ({
    transport: 'stdio', name: `s${String(i).padStart(2, '0')}`, command: process.execPath, args: [server, join(dir, file)], env: {}, cwd: undefined, source: { kind: 'userSettings' },
  }));
}

/** Resident memory of a process, from /proc (Linux). */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

async function startOnce(mods, opts, n, mode) {
  const manager = new mods.manager.McpManager({ logger: silent, workspaceTrusted: true, restart: { maxAttempts: 0 }, maxConcurrentStarts: mode.concurrency });
  const builtins = mods.search.SEARCH_BUILTINS;
  let refreshes = 0;
  const refresh = () => {
    refreshes++;
    const mcpTools = manager.tools();
    const plan = mods.upcoming.upcomingPlan({ events: [], mcpTools, builtins, runningServers: manager.runningServers(), settingsTools: SETTINGS });
    mods.overview.buildToolOverview({ catalogue: [...builtins, ...mcpTools], plan, promoted: new Set(), estimateTokens: mods.tokens.estimateToolTokens });
  };
  let timer;
  manager.onDidChange(() => {
    if (mode.batchMs === 0) refresh();
    else timer ??= setTimeout(() => { timer = undefined; refresh(); }, mode.batchMs);
  });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const t0 = performance.now();
  // The panel opens with the window: its `ready` arrives about now, and waits for a free loop.
  const answered = new Promise((done) => setTimeout(() => done(performance.now() - t0), 100));
  const searchable = new Promise((done) => manager.onDidChangeStatus((s) => { if (s.state === 'running') done(performance.now() - t0); }));
  manager.applyConfig(configs(opts, n));
  await manager.whenIdle();
  const allUp = performance.now() - t0;
  delay.disable();
  clearTimeout(timer);
  const statuses = manager.statuses();
  const failed = statuses.filter((s) => s.state !== 'running');
  if (failed.length > 0) throw new Error(`${failed[0].name} did not start: ${failed[0].reason}`);
  const memory = statuses.reduce((sum, s) => sum + (s.pid ? rssMb(s.pid) : 0), 0);
  const result = { answered: await answered, searchable: await searchable, allUp, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, memory, processes: statuses.length, refreshes, tools: manager.tools().length };
  await manager.dispose();
  return result;
}

const MODES = [
  { label: 'all at once, refresh per change (before)', concurrency: 1_000, batchMs: 0 },
  { label: '8 at a time, refresh per 100 ms (Quiver)', concurrency: 8, batchMs: 100 },
];

export async function run(opts) {
  const mods = {
    manager: await load(opts.repoRoot, 'src/mcp/mcpManager.js'),
    search: await load(opts.repoRoot, 'src/core/search/index.js'),
    upcoming: await load(opts.repoRoot, 'src/core/turn/upcomingPlan.js'),
    overview: await load(opts.repoRoot, 'src/core/toolOverview.js'),
    tokens: await load(opts.repoRoot, 'src/core/tokens.js'),
  };
  const rows = [];
  for (const n of opts.quick ? [6, 20] : [6, 20, 71]) {
    for (const mode of MODES) {
      const r = await startOnce(mods, opts, n, mode);
      rows.push([n, mode.label, r.processes, r.tools, Math.round(r.answered), Math.round(r.searchable), Math.round(r.allUp), r.p99.toFixed(0), r.max.toFixed(0), Math.round(r.memory), r.refreshes]);
    }
  }
  return {
    title: 'MCP start-up at scale: harvested catalogues served by real stdio processes, every tool discoverable',
    columns: ['servers', 'start-up', 'processes', 'tools', 'panel answered ms', 'first searchable ms', 'all up ms', 'loop delay p99 ms', 'max ms', 'server RSS MB', 'view refreshes'],
    rows,
    notes: [
      '"panel answered" = when a callback due 100 ms after activation ran (the chat\'s `ready` waits for a free event loop); "first searchable" = first server running with its tools listed.',
      'Loop delay: monitorEventLoopDelay (10 ms resolution) in the process that runs the manager, from activation until every server is up; it includes the work of each refresh.',
      'Server RSS = the sum of VmRSS of the server processes once all are up. The servers are small fixture processes; real servers (npx) cost more each.',
    ],
  };
}
