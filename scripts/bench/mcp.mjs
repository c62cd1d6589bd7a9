// Bench section: how long a demo-like set of MCP servers takes to reach a full catalogue when
// the manager starts them in parallel, against the sum of starting each alone in the same run.
// Uses the compiled manager (out/src/mcp, its index.js), so run `npx tsc -p .` first.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const SERVERS = ['everything', 'filesystem', 'memory', 'sequential-thinking'];
const silent = { info() {}, warn() {}, error() {} };

function serverConfigs(repoRoot, dir) {
  const configs = [];
  for (const name of SERVERS) {
    const script = resolve(repoRoot, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');
    if (!existsSync(script)) continue;
    const args = name === 'filesystem' ? [script, dir] : [script];
    const env = name === 'memory' ? { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } : {};
    configs.push({ transport: 'stdio', name, command: process.execPath, args, env, cwd: undefined, source: { kind: 'userSettings' } });
  }
  return configs;
}

/** Milliseconds from applyConfig to every server running with its catalogue listed. */
async function timeStart(McpManager, configs) {
  const manager = new McpManager({ logger: silent, workspaceTrusted: true, restart: { maxAttempts: 0 } });
  try {
    const started = performance.now();
    manager.applyConfig(configs);
    await manager.whenIdle();
    const ms = performance.now() - started;
    const failed = manager.statuses().filter((s) => s.state !== 'running');
    if (failed.length > 0) throw new Error(`${failed[0].name} did not start: ${failed[0].reason}`);
    return { ms, tools: manager.tools().length };
  } finally {
    await manager.dispose();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(opts) {
  const repoRoot = opts.repoRoot ?? resolve(import.meta.dirname, '..', '..');
  const { McpManager } = await import(pathToFileURL(resolve(repoRoot, 'out', 'src', 'mcp', 'index.js')).href);
  const dir = mkdtempSync(join(tmpdir(), 'quiver-bench-mcp-'));
  const runs = opts.quick ? 1 : 3;
  try {
    const configs = serverConfigs(repoRoot, dir);
    const alone = new Map(configs.map((c) => [c.name, { ms: [], tools: 0 }]));
    const parallel = { ms: [], tools: 0 };
    const sums = [];
    for (let i = 0; i < runs; i++) {
      let sum = 0;
      for (const config of configs) {
        const r = await timeStart(McpManager, [config]);
        alone.get(config.name).ms.push(r.ms);
        alone.get(config.name).tools = r.tools;
        sum += r.ms;
      }
      sums.push(sum);
      const p = await timeStart(McpManager, configs);
      parallel.ms.push(p.ms);
      parallel.tools = p.tools;
    }
    const rows = [...alone].map(([name, r]) => [`${name} alone`, r.tools, Math.round(median(r.ms))]);
    rows.push(['sum of individual starts', parallel.tools, Math.round(median(sums))]);
    rows.push([`all ${configs.length} in parallel`, parallel.tools, Math.round(median(parallel.ms))]);
    const missing = SERVERS.filter((s) => !configs.some((c) => c.name === s));
    return {
      title: 'MCP startup: time to a full tool catalogue',
      columns: ['servers', 'tools', `ms (median of ${runs})`],
      rows,
      notes: [
        `parallel / sum = ${(median(parallel.ms) / median(sums)).toFixed(2)} (each measured in this run; stdio servers run with node from node_modules, no network)`,
        ...(missing.length > 0 ? [`not installed, skipped: ${missing.join(', ')}`] : []),
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
