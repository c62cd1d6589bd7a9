// Token overhead and loop overhead. (1) The standing tool-definition tokens of a conversation's
// first request, all tools on versus the default (discoverable with a few on), for the demo
// workspace's catalogues and a 500-tool catalogue. Counts are ESTIMATES (src/core/overhead/tokens.ts:
// compact wire JSON / 3.5 chars per token). (2) The turn loop's own time per cycle: from a tool
// result to the next request arriving at the scripted Messages API, model excluded.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { loadCompiled as load } from './compiled.mjs';
import { staticToolSource } from './toolSource.mjs';
import { benchSession } from './benchSession.mjs';


/** Tools of one catalogue file under a server name, as the MCP manager would qualify them. */
function catalogTools(dir, file, server) {
  const catalog = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  return catalog.tools.map((t) => ({ name: `${server}__${t.name}`.slice(0, 64), server, toolName: t.name, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object' } }));
}

const DEMO_SERVERS = [
  ['modelcontextprotocol__server-everything.json', 'everything'],
  ['modelcontextprotocol__server-filesystem.json', 'filesystem'],
  ['modelcontextprotocol__server-memory.json', 'memory'],
  ['modelcontextprotocol__server-sequential-thinking.json', 'thinking'],
];
// The demo's other two servers (demo/.vscode/settings.json), from their bench catalogues.
const DEMO_EXTRA = [['cyanheads__git-mcp-server.json', 'git'], ['antv__mcp-server-chart.json', 'chart']];

/** demo/.vscode/settings.json's quiver.tools (JSONC: comments stripped). */
function demoToolsSettings(repoRoot) {
  const file = resolve(repoRoot, 'demo', '.vscode', 'settings.json');
  if (!existsSync(file)) return { '*': { enable: 'discoverable' }, filesystem__read_text_file: { enable: 'on' } };
  const json = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  return JSON.parse(json)['quiver.tools'];
}

/** 500 tools from the bench catalogues, whole servers in file order, cut at 500. */
function fiveHundred(dir) {
  const tools = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const server = file.slice(0, -5).split('__').pop().replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 20);
    for (const t of catalogTools(dir, file, server)) if (tools.length < 500 && !tools.some((x) => x.name === t.name)) tools.push(t);
  }
  return tools;
}

function standing(mods, mcpTools, toolsSetting) {
  const events = [{ type: 'config_delta', source: 'settings', tools: toolsSetting, at: new Date(0).toISOString() }];
  const plan = mods.plan.planTools({ events, mcpTools, builtins: mods.search.SEARCH_BUILTINS, runningServers: new Set(mcpTools.map((t) => t.server)) });
  return { offered: plan.offered.length, tokens: mods.tokens.estimateToolsTokens(plan.offered) };
}

async function tokenTable(mods, opts) {
  const dir = join(opts.bench, 'catalogs');
  const demo4 = DEMO_SERVERS.flatMap(([f, s]) => catalogTools(dir, f, s));
  const demoAll = [...DEMO_SERVERS, ...DEMO_EXTRA].filter(([f]) => existsSync(join(dir, f))).flatMap(([f, s]) => catalogTools(dir, f, s));
  const big = fiveHundred(dir);
  const demoSettings = demoToolsSettings(opts.repoRoot);
  const bigDefault = { '*': { enable: 'discoverable' }, [big[0].name]: { enable: 'on' }, [big[1].name]: { enable: 'on' }, [big[2].name]: { enable: 'on' } };
  const rows = [];
  for (const [label, tools, setting] of [
    ['demo: everything, filesystem, memory, thinking', demo4, demoSettings],
    ['demo: all 6 servers (+ git, chart)', demoAll, demoSettings],
    ['500 tools (bench catalogues)', big, bigDefault],
  ]) {
    const all = standing(mods, tools, {});
    const def = standing(mods, tools, setting);
    rows.push([label, tools.length, all.offered, all.tokens, def.offered, def.tokens, `${(100 * (1 - def.tokens / all.tokens)).toFixed(1)}%`]);
  }
  return {
    title: 'Standing tool-definition tokens of the first request (ESTIMATES)',
    columns: ['catalogue', 'tools', 'all on: offered', 'all on: ~tokens', 'default: offered', 'default: ~tokens', 'saved'],
    rows,
    notes: [
      'Estimate = ceil(compact JSON {name, description, input_schema} / 3.5 chars per token), per tool, summed (src/core/overhead/tokens.ts);',
      'the API adds its own fixed tool-use system preamble on top. Real counts: usage.input_tokens of a request.',
      'Default = demo/.vscode/settings.json quiver.tools (every server "<server>__*" discoverable, a few on; includes search_tools + describe_tools);',
      'for 500 tools: "*" discoverable with 3 on.',
    ],
  };
}

async function overheadRow(mods, label, mcpTools, toolsSetting, cycles) {
  const { ScriptedMessagesApi, reply, text, toolUse } = mods.fixture;
  const first = mcpTools.find((t) => toolsSetting[t.name]?.enable === 'on') ?? mcpTools[0];
  const steps = Array.from({ length: cycles }, (_, i) => reply(toolUse(`t${i}`, first.name, {})));
  const api = await ScriptedMessagesApi.start([...steps, reply(text('done'))]);
  const folder = await mkdtemp(join(tmpdir(), 'quiver-bench-'));
  const finished = [];
  const source = staticToolSource(mcpTools, async () => {
    finished.push(performance.now());
    return { content: [{ type: 'text', text: 'ok' }], isError: false };
  });

  try {
    const session = await benchSession(mods, { folder, source, apiUrl: api.url, settings: () => ({ tools: { ...toolsSetting, '*': { ...toolsSetting['*'], run: 'unattended' } }, maxCyclesPerTurn: cycles + 1 }) });
    await session.send('go', new globalThis.AbortController().signal);
    const gaps = finished.map((t, i) => api.requests[i + 1].receivedAt - t).sort((a, b) => a - b);
    const pct = (p) => gaps[Math.min(gaps.length - 1, Math.floor(p * gaps.length))];
    return [label, mcpTools.length, gaps.length, pct(0.5), pct(0.95)];
  } finally {
    await api.close();
    await rm(folder, { recursive: true, force: true });
  }
}

async function overheadTable(mods, opts) {
  const dir = join(opts.bench, 'catalogs');
  const cycles = opts.quick ? 15 : 60;
  const demo4 = DEMO_SERVERS.flatMap(([f, s]) => catalogTools(dir, f, s));
  const big = fiveHundred(dir);
  const rows = [
    await overheadRow(mods, 'demo (4 servers), default settings', demo4, demoToolsSettings(opts.repoRoot), cycles),
    await overheadRow(mods, '500 tools, all on', big, {}, cycles),
    await overheadRow(mods, '500 tools, "*" discoverable + 1 on', big, { '*': { enable: 'discoverable' }, [big[0].name]: { enable: 'on' } }, cycles),
  ];
  return {
    title: 'Turn-loop overhead per cycle (tool result → next request received by the scripted API, model excluded)',
    columns: ['case', 'tools', 'cycles', 'median ms', 'p95 ms'],
    rows,
    notes: [
      'Includes: commit-buffer fold, JSON-lines append, config re-resolve (stream fold + registration scan), transcript rebuild,',
      'request serialization by @anthropic-ai/sdk and the localhost HTTP hop. One turn of N cycles; later cycles carry longer transcripts.',
    ],
  };
}

/**
 * The editor's own tools: what their defaults (RFD 108's shape) put on every request, against all
 * of them on; and the edit path as Quiver's own schemas against Anthropic's schema-less text editor
 * tool, whose definition the docs put at a fixed 700 input tokens (platform.claude.com/docs/en/
 * agents-and-tools/tool-use/text-editor-tool, "Pricing": text_editor_20250728).
 */
function editorTable(mods) {
  const tools = mods.editor.editorToolDefinitions(true);
  const settingsLayer = (tools) => [{ type: 'config_delta', source: 'settings', tools, at: new Date(0).toISOString() }];
  const offered = (settings) => mods.plan.planTools({ events: settingsLayer(settings), mcpTools: tools, builtins: [], runningServers: new Set(['editor']) }).offered;
  const row = (label, list) => [label, list.length, mods.tokens.estimateToolsTokens(list)];
  const defaults = offered({});
  const allOn = offered({ 'editor__*': { enable: 'on' } });
  const editPath = tools.filter((t) => ['read_file', 'edit_file', 'create_file'].includes(t.toolName));
  return {
    title: 'The editor\'s own tools: standing definition tokens (ESTIMATES, as the first request would carry them)',
    columns: ['case', 'tools', '~tokens'],
    rows: [
      row('defaults: reads, search, problems, edit, create on', defaults),
      row('all 15 editor tools on', allOn),
      row('edit path: read_file + edit_file + create_file', editPath),
      ['Anthropic text editor tool (view/create/str_replace/insert), per the docs', 1, 700],
    ],
    notes: [
      `Defaults: ${defaults.map((t) => t.toolName).join(', ')} on; language tools, rename and run_command discoverable (search_tools finds them), delete_file off.`,
      'Estimate = ceil(compact JSON / 3.5) per tool (src/core/overhead/tokens.ts); the text editor row is Anthropic\'s own fixed figure, not an estimate.',
    ],
  };
}

/** Every bench catalogue's tools under unique qualified names. */
function allTools(dir) {
  const tools = [];
  const seen = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const server = file.slice(0, -5).split('__').pop().replace(/[^a-zA-Z0-9-]/g, '-').slice(0, 20);
    for (const t of catalogTools(dir, file, server)) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      tools.push(t);
    }
  }
  return tools;
}

/** What the Tools view and the status bar compute on each change (src/extension/liveToolsModel.ts). */
function refresh(mods, tools, estimateTokens) {
  const running = new Set(tools.map((t) => t.server));
  const plan = mods.upcoming.upcomingPlan({ events: [], mcpTools: tools, builtins: mods.search.SEARCH_BUILTINS, runningServers: running, settingsTools: { '*': { enable: 'discoverable' } } });
  return mods.overview.buildToolOverview({ catalogue: [...mods.search.SEARCH_BUILTINS, ...tools], plan, promoted: mods.upcoming.promotedTools([], plan), estimateTokens });
}

function refreshTable(mods, opts) {
  const tools = allTools(join(opts.bench, 'catalogs'));
  const uncached = (t) => Math.ceil(mods.tokens.wireJsonOf(t).length / mods.tokens.CHARS_PER_TOKEN);
  const rows = [];
  refresh(mods, tools, () => 1); // compiles the shared code first, so neither row pays for it
  for (const [label, estimate] of [['every tool re-serialized (baseline)', uncached], ['estimates cached per schema (Quiver)', mods.tokens.estimateToolTokens]]) {
    const t0 = performance.now();
    refresh(mods, tools, estimate);
    const first = performance.now() - t0;
    const times = [];
    for (let i = 0; i < (opts.quick ? 5 : 20); i++) {
      const s = performance.now();
      refresh(mods, tools, estimate);
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    rows.push([label, tools.length, first.toFixed(1), times[Math.floor(times.length / 2)].toFixed(1), times[times.length - 1].toFixed(1)]);
  }
  return {
    title: 'Tools view and status bar refresh (sets + overview with token estimates, on every catalogue or stream change)',
    columns: ['estimates', 'tools', 'first ms', 'median ms', 'max ms'],
    rows,
    notes: ['All bench catalogues, "*" discoverable; the extension host does this on the UI-facing thread after each change.'],
  };
}

export async function run(opts) {
  const mods = {
    plan: await load(opts.repoRoot, 'src/core/turn/toolPlan.js'),
    tokens: await load(opts.repoRoot, 'src/core/overhead/tokens.js'),
    search: await load(opts.repoRoot, 'src/core/search/index.js'),
    searchBuiltins: await load(opts.repoRoot, 'src/core/turn/searchBuiltins.js'),
    session: await load(opts.repoRoot, 'src/core/turn/session.js'),
    store: await load(opts.repoRoot, 'src/core/stream/conversationStore.js'),
    anthropic: await load(opts.repoRoot, 'src/providers/anthropic/anthropicModelClient.js'),
    fixture: await load(opts.repoRoot, 'test/fixtures/scriptedMessagesApi.js'),
    upcoming: await load(opts.repoRoot, 'src/core/turn/upcomingPlan.js'),
    settings: await load(opts.repoRoot, 'src/core/settings/registry.js'),
    overview: await load(opts.repoRoot, 'src/core/overhead/toolOverview.js'),
    editor: await load(opts.repoRoot, 'src/core/editorTools/index.js'),
  };
  const speed = opts.noSpeed ? [] : [refreshTable(mods, opts), await overheadTable(mods, opts)];
  return [await tokenTable(mods, opts), editorTable(mods), ...speed];
}
