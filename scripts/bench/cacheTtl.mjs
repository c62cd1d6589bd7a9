// The prompt cache's time-to-live for a chat (`quiver.cache.ttl`): whether writing the stable prefix
// (tools and system prompt) for an hour costs less than writing it again after every pause longer
// than five minutes. One conversation of 30 messages (the cache section's twelve, cycled: searches,
// promotions, tool calls with results of 3,000–24,000 characters) through the real turn loop and
// @anthropic-ai/sdk against the scripted Messages API, whose prompt cache runs on a simulated clock
// (test/fixtures/promptCache.ts: entries expire 5 minutes or 1 hour after they were last written or
// read, measured from the start of the request). Each request takes 20 simulated seconds (the reply
// and its tool calls); before each message the clock moves by the person's pause, drawn with a fixed
// seed (test/fixtures/seededRandom.ts). Human-paced: log-uniform over 0.5–20 minutes (median 3.2
// minutes, 38% of pauses over 5). Fast-paced: uniform over 5–50 seconds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchSession } from './benchSession.mjs';
import { ALL_ON, catalogue, DISCOVERABLE, modelReply, resultText, TWELVE } from './cache.mjs';
import { loadCompiled as load } from './compiled.mjs';
import { staticToolSource } from './toolSource.mjs';

const MODEL = 'claude-sonnet-5-5';
const MINUTE = 60_000;
const REQUEST_MS = 20_000;
/** The stable prefix: Quiver's default (servers discoverable: search_tools and the system prompt), and every tool up front. */
const TOOLS = [
  { label: 'discoverable', tools: DISCOVERABLE },
  { label: 'every tool on', tools: ALL_ON },
];

/** Thirty messages: the cache section's twelve, cycled, each told apart so the scripted model knows which it answers. */
const THIRTY = Array.from({ length: 30 }, (_, i) => {
  const m = TWELVE[i % TWELVE.length];
  return { ...m, user: `${m.user} (message ${i + 1})` };
});

/** `seeds`: one conversation each, the same pauses for both TTLs (a fast pace never passes 5 minutes, so one seed shows it). */
const PACES = [
  { label: 'human-paced: pauses log-uniform 0.5–20 min', pause: (random) => 0.5 * MINUTE * Math.pow(40, random()), seeds: [1, 2, 3] },
  { label: 'fast-paced: pauses uniform 5–50 s', pause: (random) => 5_000 + 45_000 * random(), seeds: [1] },
];

/** Cost in units of the base input price: 5-minute writes 1.25×, 1-hour writes 2×, reads 0.1× (output left out: the same in every row). */
function totals(requests) {
  const sum = (get) => requests.reduce((n, r) => n + get(r.cache), 0);
  const input = sum((c) => c.input_tokens);
  const short = sum((c) => c.cache_creation.ephemeral_5m_input_tokens);
  const long = sum((c) => c.cache_creation.ephemeral_1h_input_tokens);
  const read = sum((c) => c.cache_read_input_tokens);
  return { input, short, long, read, cost: input + 1.25 * short + 2 * long + 0.1 * read, readShare: read / (input + short + long + read) };
}

async function runConversation(mods, opts, { pace, seed, tools }, cacheTtl) {
  const fx = mods.fixture;
  const random = mods.random.seededRandom(seed);
  let now = 0;
  const api = await fx.ScriptedMessagesApi.start([], undefined, { clock: () => now });
  const folder = await mkdtemp(join(tmpdir(), 'quiver-bench-ttl-'));
  const source = staticToolSource(catalogue(join(opts.bench, 'catalogs')), async (name) => ({ content: [{ type: 'text', text: resultText(name, THIRTY.find((m) => m.tool === name)?.chars ?? 1_000) }], isError: false }));
  // The reply is written, and its calls run, after the request started: the next request starts this much later.
  const decide = (body) => {
    now += REQUEST_MS;
    return modelReply(fx, THIRTY, body);
  };
  let longPauses = 0;
  try {
    const session = await benchSession(mods, { folder, source, apiUrl: api.url, settings: () => ({ tools: tools.tools, model: MODEL, maxCyclesPerTurn: 10, cacheTtl }) });
    for (const [i, message] of THIRTY.entries()) {
      if (i > 0) {
        const pause = pace.pause(random);
        if (pause > 5 * MINUTE) longPauses++;
        now += pause;
      }
      api.enqueue(...Array.from({ length: message.tool ? 4 : 1 }, () => ({ kind: 'decide', decide })));
      const result = await session.send(message.user, new AbortController().signal);
      if (result.reason !== 'done') throw new Error(`${cacheTtl}, message ${i + 1}: the turn ended ${result.reason}: ${result.message ?? ''}`);
    }
    const rejected = api.requests.filter((r) => r.rejected !== undefined);
    if (rejected.length > 0) throw new Error(`${cacheTtl}: the API rejected ${rejected.length} request(s): ${rejected[0].rejected}`);
    return { requests: api.requests, longPauses, minutes: now / MINUTE };
  } finally {
    await api.close();
    await rm(folder, { recursive: true, force: true });
  }
}

const int = (x) => Math.round(x).toLocaleString('en-US');

export async function run(opts) {
  const mods = {
    session: await load(opts.repoRoot, 'src/core/turn/session.js'),
    settings: await load(opts.repoRoot, 'src/core/settings/registry.js'),
    store: await load(opts.repoRoot, 'src/core/stream/conversationStore.js'),
    searchBuiltins: await load(opts.repoRoot, 'src/core/turn/searchBuiltins.js'),
    anthropic: await load(opts.repoRoot, 'src/providers/anthropic/anthropicModelClient.js'),
    fixture: await load(opts.repoRoot, 'test/fixtures/scriptedMessagesApi.js'),
    random: await load(opts.repoRoot, 'test/fixtures/seededRandom.js'),
    cacheTtl: await load(opts.repoRoot, 'src/core/context/cacheTtl.js'),
  };
  const rows = [];
  const sums = new Map();
  for (const pace of PACES) {
    for (const tools of TOOLS) {
      for (const seed of pace.seeds) {
        let base;
        for (const ttl of ['5m', '1h']) {
          const { requests, longPauses, minutes } = await runConversation(mods, opts, { pace, seed, tools }, ttl);
          const t = totals(requests);
          base ??= t.cost;
          const key = `${pace.label}, ${tools.label}`;
          sums.set(key, { ...sums.get(key), [ttl]: (sums.get(key)?.[ttl] ?? 0) + t.cost });
          rows.push([pace.label, tools.label, seed, `${longPauses} of 29 (${Math.round(minutes)} min)`, ttl, requests.length, int(t.input), int(t.short), int(t.long), int(t.read), `${Math.round(100 * t.readShare)}%`, int(t.cost), `${(t.cost / base).toFixed(3)}×`]);
        }
      }
    }
  }
  const verdicts = [...sums].map(([key, c]) => `${key}: ${c['1h'] < c['5m'] ? '1h' : '5m'} is cheaper (${int(c['5m'])} cost units at 5m, ${int(c['1h'])} at 1h, all seeds).`);
  return {
    title: 'Cache time-to-live of the stable prefix (tools + system) over a 30-message chat: github, notion, sentry, stripe (94 tools), claude-sonnet-5-5',
    columns: ['pace', 'tools', 'seed', 'pauses over 5 min (chat length)', 'stable prefix TTL', 'requests', 'input', '5m writes', '1h writes', 'cache reads', 'read share', 'cost units', 'vs 5m'],
    rows,
    notes: [
      'Cost units = input + 1.25 × 5-minute writes + 2 × 1-hour writes + 0.1 × reads (the API price ratios; https://platform.claude.com/docs/en/build-with-claude/prompt-caching); output tokens are the same in every row and left out. The moving breakpoint at the end of the messages is 5 minutes in every row.',
      `Each request takes ${REQUEST_MS / 1000} simulated seconds; a pause is drawn before each of messages 2–30 with seededRandom(seed). Token counts are ESTIMATES (JSON / 3.5) made by the scripted API.`,
      ...verdicts,
      `quiver.cache.ttl "auto" sends ${mods.cacheTtl.resolveCacheTtl('auto')}.`,
    ],
  };
}
