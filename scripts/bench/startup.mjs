// Start-up at scale: N harvested catalogues (../shared/bench/catalogs), each served by a real
// stdio server process (test/fixtures/mcp/catalogue-server.mjs, which logs every start to a file
// so processes are counted, not inferred), started by the compiled MCP manager in this process,
// which also does what the extension host does on every change it is told of: rebuild the Tools
// view's overview over every tool (src/extension/liveToolsModel.ts). Rows: every server at once
// with a refresh per change (Quiver before 2026-12-01); the start queue with refreshes batched per
// 100 ms (a cold catalogue cache, or servers named in quiver.mcp.eagerServers); and servers with
// no tool on idle on a warm catalogue cache (Quiver). A second table times the first call of an
// idle server's tool and checks that search over cached catalogues answers exactly as over live
// servers. Run `npx tsc -p .` first.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadCompiled as load } from './compiled.mjs';

const silent = { info() {}, warn() {}, error() {} };
const SETTINGS = { '*': { enable: 'discoverable' } };
const SEARCH_PROBE = 'create an issue';

function configs(opts, n, startLog) {
  const dir = join(opts.bench, 'catalogs');
  const server = resolve(opts.repoRoot, 'test', 'fixtures', 'mcp', 'catalogue-server.mjs');
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().slice(0, n).map((file, i) => ({
    transport: 'stdio', name: `s${String(i).padStart(2, '0')}`, command: process.execPath, args: [server, join(dir, file)], env: { FIXTURE_START_LOG: startLog }, cwd: undefined, source: { kind: 'userSettings' },
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

function startsLogged(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

/** What quiver.tools = { "*": discoverable } makes of these servers: none off, every one may idle. */
function restingAll(servers, lazy) {
  return { off: new Set(), idle: new Set(lazy ? servers.map((s) => s.name) : []) };
}

/** The searchable set the turn loop would hand search_tools, and the real ranker over it. */
function searchOver(mods, manager) {
  const builtins = mods.searchBuiltins.createSearchBuiltins();
  const plan = mods.upcoming.upcomingPlan({ events: [], mcpTools: manager.tools(), builtins: builtins.definitions, runningServers: manager.runningServers(), settingsTools: SETTINGS });
  return (query) => builtins.search({ query, limit: 10 }, plan.searchable);
}

function newManager(mods, mode, cacheDir) {
  return new mods.manager.McpManager({ logger: silent, workspaceTrusted: true, restart: { maxAttempts: 0 }, maxConcurrentStarts: mode.concurrency, catalogueCacheDir: cacheDir });
}

/** Runs every server once with the cache on, as a previous session would have, so the next activation finds their catalogues. */
async function warmCache(mods, servers, cacheDir) {
  const manager = newManager(mods, { concurrency: mods.options.DEFAULTS.maxConcurrentStarts }, cacheDir);
  manager.applyConfig(servers, restingAll(servers, false));
  await manager.whenIdle();
  await manager.dispose();
}

/** One activation in `mode`; the manager is returned alive with the figures. */
async function activate(mods, servers, mode, cacheDir, startLog) {
  const manager = newManager(mods, mode, mode.lazy ? cacheDir : undefined);
  const startsBefore = startsLogged(startLog);
  let refreshes = 0;
  const refresh = () => {
    refreshes++;
    const mcpTools = manager.tools();
    const builtins = mods.search.SEARCH_BUILTINS;
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
  const searchable = new Promise((done) => manager.onDidChangeStatus((s) => { if (s.state === 'running' || s.state === 'idle') done(performance.now() - t0); }));
  manager.applyConfig(servers, restingAll(servers, mode.lazy));
  await manager.whenIdle();
  const listed = performance.now() - t0;
  delay.disable();
  // Searched once the panel has answered, so the index build (synchronous) does not pass for start-up work.
  const panel = await answered;
  const ts = performance.now();
  const found = searchOver(mods, manager)(SEARCH_PROBE);
  const searched = listed + performance.now() - ts;
  clearTimeout(timer);
  const statuses = manager.statuses();
  const expected = mode.lazy ? 'idle' : 'running';
  const wrong = statuses.filter((s) => s.state !== expected);
  if (wrong.length > 0) throw new Error(`${wrong[0].name} is ${wrong[0].state}, expected ${expected}: ${wrong[0].reason}`);
  if (!found.ok || found.results.length === 0) throw new Error(`search found nothing for "${SEARCH_PROBE}"`);
  const memory = statuses.reduce((sum, s) => sum + (s.pid ? rssMb(s.pid) : 0), 0);
  return {
    manager,
    figures: { answered: panel, searchable: await searchable, listed, searched, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6, memory, processes: startsLogged(startLog) - startsBefore, refreshes, tools: manager.tools().length },
  };
}

/** The start-up modes; `defaultStarts` is Quiver's (DEFAULTS.maxConcurrentStarts: two per core, at most 8). */
function modes(defaultStarts) {
  // The sweep the default was chosen by: too few leave cores idle while servers wait on I/O, too many crowd the host.
  const sweep = [...new Set([4, 8, 16, defaultStarts])].sort((a, b) => a - b);
  return [
    { label: 'all at once, refresh per change (before)', concurrency: 1_000, batchMs: 0, lazy: false },
    ...sweep.map((c) => ({ label: `${c} at a time, refresh per 100 ms${c === defaultStarts ? ' (Quiver; cold cache or eagerServers)' : ''}`, concurrency: c, batchMs: 100, lazy: false })),
    { label: 'idle on a warm catalogue cache (Quiver)', concurrency: defaultStarts, batchMs: 100, lazy: true },
  ];
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** ms of one call of `tool` through the manager (a start first when its server is idle). */
async function timedCall(manager, tool) {
  const t = performance.now();
  const result = await manager.call(tool.name, {}, new AbortController().signal);
  if (result.isError) throw new Error(`${tool.name} failed: ${result.content[0]?.text}`);
  return performance.now() - t;
}

/** First call of one tool per idle server (start + call) against a call once it runs. */
async function callTimes(manager, servers) {
  const firstOf = (server) => manager.tools().find((t) => t.server === server);
  const lazy = [];
  const running = [];
  for (const { name } of servers) {
    const tool = firstOf(name);
    lazy.push(await timedCall(manager, tool));
    running.push(await timedCall(manager, tool));
  }
  return { lazy: median(lazy), running: median(running), n: servers.length };
}

/** The dev queries through the real ranker over one manager's catalogue. */
function answers(mods, manager, queries) {
  const search = searchOver(mods, manager);
  return queries.map((q) => JSON.stringify(search(q.query)));
}

export async function run(opts) {
  const mods = {
    manager: await load(opts.repoRoot, 'src/mcp/mcpManager.js'),
    options: await load(opts.repoRoot, 'src/mcp/managerOptions.js'),
    search: await load(opts.repoRoot, 'src/core/search/index.js'),
    searchBuiltins: await load(opts.repoRoot, 'src/core/turn/searchBuiltins.js'),
    upcoming: await load(opts.repoRoot, 'src/core/turn/upcomingPlan.js'),
    overview: await load(opts.repoRoot, 'src/core/overhead/toolOverview.js'),
    tokens: await load(opts.repoRoot, 'src/core/overhead/tokens.js'),
  };
  const queries = readFileSync(join(opts.bench, 'mcp-dev-queries.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const work = mkdtempSync(join(tmpdir(), 'quiver-bench-startup-'));
  const rows = [];
  const lazyRows = [];
  try {
    for (const n of opts.quick ? [6, 20] : [6, 20, 71]) {
      const startLog = join(work, `starts-${n}.log`);
      const cacheDir = join(work, `catalogues-${n}`);
      const servers = configs(opts, n, startLog);
      await warmCache(mods, servers, cacheDir);
      let live;
      for (const mode of modes(mods.options.DEFAULTS.maxConcurrentStarts)) {
        const { manager, figures: r } = await activate(mods, servers, mode, cacheDir, startLog);
        rows.push([n, mode.label, r.processes, r.tools, Math.round(r.answered), Math.round(r.searchable), Math.round(r.listed), Math.round(r.searched), r.p99.toFixed(0), r.max.toFixed(0), Math.round(r.memory), r.refreshes]);
        if (!mode.lazy) {
          live = answers(mods, manager, queries);
          await manager.dispose();
          continue;
        }
        const cached = answers(mods, manager, queries);
        const differ = cached.filter((a, i) => a !== live[i]).length;
        const calls = await callTimes(manager, servers.slice(0, 6));
        await manager.dispose();
        lazyRows.push([n, Math.round(calls.lazy), Math.round(calls.running), calls.n, queries.length, differ === 0 ? 'yes' : `no: ${differ} differ`]);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return [
    {
      title: 'MCP start-up at scale: harvested catalogues served by real stdio processes, every tool discoverable',
      columns: ['servers', 'start-up', 'processes started', 'tools listed', 'panel answered ms', 'first searchable ms', 'all listed ms', 'first search answered ms', 'loop delay p99 ms', 'max ms', 'server RSS MB', 'view refreshes'],
      rows,
      notes: [
        'Each N first runs every server once with the catalogue cache on (a previous session), so the idle row finds every catalogue; the other rows do not read the cache.',
        '"processes started" = server processes launched during activation, as the fixture servers logged them. "panel answered" = when a callback due 100 ms after activation ran (the chat\'s `ready` waits for a free event loop); "first searchable" = first server listed (running, or idle on its cache); "all listed" = every server\'s tools listed, so search can answer; "first search answered" = that plus building the search index and ranking one search_tools query over all the tools (timed after the panel answered; the index is built at the first search either way).',
        'Loop delay: monitorEventLoopDelay (10 ms resolution) in the process that runs the manager, from activation until every server is listed; it includes the work of each refresh.',
        'Server RSS = the sum of VmRSS of the server processes once every server is listed. The servers are small fixture processes; real servers (npx) cost more each.',
      ],
    },
    {
      title: 'Idle servers: the first call, and search over cached catalogues',
      columns: ['servers', 'first call of an idle server\'s tool ms (start + call)', 'call to a running server ms', 'calls (one per server)', 'dev queries', 'search results identical to live servers'],
      rows: lazyRows,
      notes: [
        'Calls: median over the first six servers, each called once while idle and once more when running, through McpManager.call.',
        'Search: every dev query through search_tools\' real ranker (createSearchBuiltins) over the searchable set, from the cached catalogues and from the live servers; identical = the same ranked names, summaries and totals.',
      ],
    },
  ];
}
