// Tool results over a whole conversation, after "Tools Produce Context", Experiment 2: the real
// turn loop and @anthropic-ai/sdk against the scripted Messages API (prompt-cache pricing,
// claude-sonnet-5-5 with its signed thinking sent back), one deterministic fixture tool over the
// same ledger in three pre-registered regimes, shaped by the real MCP result shaping
// (src/mcp/shapeToolResult.ts). The ledger holds valid but irrelevant bulk and one decisive item
// near its tail (the one disputed transaction), whose exact id and amount the answer needs.
// The scripted model reads what each request gives it: it answers from what it sees, calls
// read_result (grep for what it looks for, or pages through) when a view says the rest is kept,
// and otherwise says it did not find it. Strategies side by side: the full raw result, the cut at
// 100,000 characters (Quiver before 2026-12-01), head + reference (Quiver now), and an oracle
// minimum (the tool returns only the decisive record, from the fixture's ground truth). A second
// table sweeps quiver.results.maxTokens / thresholdTokens over a task mix to choose the defaults.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCompiled as load } from './compiled.mjs';
import { callable } from './offered.mjs';
import { staticToolSource } from './toolSource.mjs';
import { benchSession } from './benchSession.mjs';

const MODEL = 'claude-sonnet-5-5';
const TOOL = 'ledger__list_transactions';
const REGIMES = [
  { name: 'small', records: 20 },
  { name: 'medium', records: 200 },
  { name: 'large', records: 1_600 },
];
/** Where the decisive record sits: near the tail, never in the last lines a view's tail shows. */
const DECISIVE_AT = 0.9;
/** Quiver before 2026-12-01: quiver.mcp.maxResultChars cut every result here, and the rest was gone. */
const OLD_CUT = 100_000;
const NEVER = Number.MAX_SAFE_INTEGER;

const MERCHANTS = ['Northwind Supplies', 'Contoso Travel', 'Fabrikam Print', 'Tailspin Catering', 'Adventure Works', 'Litware Cloud', 'Proseware Legal', 'Wingtip Couriers'];
const APPROVERS = ['j.okafor', 'm.lindqvist', 'a.ferreira', 's.tanaka', 'r.haddad'];
const STATUSES = ['settled', 'settled', 'settled', 'pending', 'refunded'];
const MEMOS = [
  'Quarterly restock of office paper and toner cartridges',
  'Flights and two hotel nights for the Lisbon customer visit',
  'Printed onboarding binders for the new support team',
  'Lunch for the all-hands planning day, 42 people',
  'Replacement laptop bags and docking stations',
  'Monthly cloud hosting, production and staging',
  'Contract review for the reseller agreement renewal',
  'Same-day courier of signed originals to the auditors',
];


/** The ledger of a regime: `count` transactions, the one disputed at DECISIVE_AT, the rest valid bulk. */
function ledger(mods, count) {
  const next = mods.random.seededRandom(count * 7919);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const decisive = Math.floor(count * DECISIVE_AT);
  return Array.from({ length: count }, (_, i) => ({
    id: `TX-${Math.floor(next() * 36 ** 6).toString(36).toUpperCase().padStart(6, '0')}`,
    date: `2026-11-${String(1 + Math.floor((i * 30) / count)).padStart(2, '0')}`,
    merchant: pick(MERCHANTS),
    amount_cents: 500 + Math.floor(next() * 250_000),
    currency: 'EUR',
    status: i === decisive ? 'disputed' : pick(STATUSES),
    approved_by: pick(APPROVERS),
    memo: pick(MEMOS),
  }));
}

/** What the tool returns: every transaction, pretty-printed as many servers do. */
const ledgerText = (records) => JSON.stringify({ month: '2026-11', count: records.length, transactions: records }, null, 2);

function topMerchant(records) {
  const sums = new Map();
  for (const r of records) sums.set(r.merchant, (sums.get(r.merchant) ?? 0) + r.amount_cents);
  return [...sums].sort((a, b) => b[1] - a[1])[0];
}

const TASKS = {
  needle: {
    ask: 'A customer disputes a November charge. Find the disputed transaction in the ledger and give me its exact id and amount.',
    truth: (records) => {
      const d = records.find((r) => r.status === 'disputed');
      return [d.id, String(d.amount_cents)];
    },
  },
  aggregate: {
    ask: 'Which merchant received the most money in November, summed over all its transactions (amount_cents)?',
    truth: (records) => topMerchant(records).map(String),
  },
};
const FOLLOW_UPS = ['Draft a two-line note about it for the approver.', 'Thanks. Is there anything else I should check before I reply?'];

// ---- What the scripted model reads of a request ----------------------------------------------

const userTexts = (body) => body.messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text));

/** Every tool result the request holds, in order: its call id and its text. */
function results(body) {
  return body.messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b.type === 'tool_result').map((b) => ({
    id: b.tool_use_id,
    text: (Array.isArray(b.content) ? b.content : []).filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
  })));
}

/** The ref a view of the ledger result offers, when what the model got is a view. */
const keptRef = (text) => /^\[Result (r\d+) of [^,]+, status: (truncated|reference-only|error)/.exec(text)?.[1];

/** The disputed record in what the model has read, from pretty JSON lines, grep output or compact elements alike. */
function disputedIn(text) {
  const at = text.search(/"status":\s*"disputed"/);
  if (at < 0) return undefined;
  const before = text.slice(Math.max(0, at - 600), at);
  const id = [...before.matchAll(/"id":\s*"(TX-[0-9A-Z]+)"/g)].at(-1)?.[1];
  const amount = [...before.matchAll(/"amount_cents":\s*(\d+)/g)].at(-1)?.[1];
  return id !== undefined && amount !== undefined ? [id, amount] : undefined;
}

/** The ledger's lines read so far through read_result pages, and the next line to read (undefined once the end was read). */
function pagesRead(texts) {
  const lines = [];
  let next = 1;
  for (const t of texts) {
    const m = /^\[(r\d+): lines ([\d,]+)–([\d,]+) of [\d,]+(?: \(as many as fit in one answer\))?(?:; the next line is ([\d,]+)|; that is the end of the result)\.\]\n/.exec(t);
    if (!m) continue;
    lines.push(...t.slice(m[0].length).split('\n'));
    next = m[4] === undefined ? undefined : Number(m[4].replaceAll(',', ''));
  }
  return { lines, next };
}

/** The ledger as the model read it whole: the tool's own result, or every page of it, parsed. */
function ledgerRead(own, pages) {
  try {
    return JSON.parse(pages.next === undefined && pages.lines.length > 0 ? pages.lines.join('\n') : own).transactions;
  } catch {
    return undefined;
  }
}

/**
 * One reply per request, chosen from the request alone. A new task calls the ledger tool; with
 * results in hand the model answers from what it read, or reads on with read_result when a view
 * says the rest is kept (needle: one grep with enough context for the whole record; aggregate:
 * page after page until the end), or says it did not find it. Follow-ups are answered in text.
 */
function modelReply(fx, task, body, state) {
  const { reply, text, toolUse } = fx;
  const asked = userTexts(body);
  if (asked.at(-1) !== TASKS[task].ask) return reply(text(`Here you go (${asked.length}).`));
  const seen = results(body);
  const own = seen.find((r) => r.id === 'call-ledger');
  if (own === undefined) return reply(text('Let me pull the ledger.'), toolUse('call-ledger', TOOL, { month: '2026-11' }));
  const reads = seen.filter((r) => r.id.startsWith('read-')).map((r) => r.text);
  const ref = keptRef(own.text);
  const canRead = ref !== undefined && callable(body).has('read_result');
  const answer = (found) => {
    state.answer = found === undefined ? 'I could not find it in what the tool returned.' : `Found: ${found.join(' ')}`;
    return reply(text(state.answer));
  };
  if (task === 'needle') {
    const found = disputedIn([own.text, ...reads].join('\n'));
    if (found !== undefined || !canRead || reads.length > 0) return answer(found);
    return reply(toolUse('read-1', 'read_result', { ref, grep: '"status": "disputed"', context: 8 }));
  }
  const pages = pagesRead(reads);
  const records = ref === undefined ? ledgerRead(own.text, { lines: [], next: 1 }) : ledgerRead(own.text, pages);
  if (records !== undefined) return answer(topMerchant(records).map(String));
  if (!canRead || pages.next === undefined) return answer(undefined);
  return reply(toolUse(`read-${reads.length + 1}`, 'read_result', { ref, offset: pages.next }));
}

// ---- One conversation ------------------------------------------------------------------------

async function conversation(mods, { regime, task, strategy, results: resultSettings }) {
  const fx = mods.fixture;
  const records = ledger(mods, regime.records);
  const api = await fx.ScriptedMessagesApi.start();
  const folder = await mkdtemp(join(tmpdir(), 'quiver-bench-results-'));
  const tool = { name: TOOL, server: 'ledger', toolName: 'list_transactions', description: 'List the ledger\'s transactions of one month, every field of each, as JSON.', inputSchema: { type: 'object', properties: { month: { type: 'string', description: 'YYYY-MM' } }, required: ['month'] } };
  const source = staticToolSource([tool], async () => {
    const shown = strategy.oracle ? JSON.stringify({ month: '2026-11', transactions: records.filter((r) => r.status === 'disputed') }, null, 2) : ledgerText(records);
    return mods.shape.shapeToolResult({ content: [{ type: 'text', text: shown }] }, { server: 'ledger', tool: 'list_transactions', maxResultChars: strategy.maxResultChars });
  });
  const state = { answer: undefined };
  try {
    const session = await benchSession(mods, { folder, source, apiUrl: api.url, settings: () => ({ tools: { [TOOL]: { enable: 'on', run: 'unattended' } }, model: MODEL, results: resultSettings }) });
    for (const ask of [TASKS[task].ask, ...FOLLOW_UPS]) {
      api.enqueue(...Array.from({ length: 40 }, () => ({ kind: 'decide', decide: (body) => modelReply(fx, task, body, state) })));
      const result = await session.send(ask, new AbortController().signal);
      api.discardRemaining();
      if (result.reason === 'max_cycles') {
        state.answer = `stopped at quiver.maxCyclesPerTurn: ${result.message}`;
        continue;
      }
      if (result.reason !== 'done') throw new Error(`${regime.name} ${task} ${strategy.label}: the turn ended ${result.reason}: ${result.message ?? ''}`);
    }
    const rejected = api.requests.filter((r) => r.rejected !== undefined);
    if (rejected.length > 0) throw new Error(`${strategy.label}: the API rejected ${rejected.length} request(s): ${rejected[0].rejected}`);
    const truth = TASKS[task].truth(records);
    return { requests: api.requests, found: truth.every((t) => (state.answer ?? '').includes(t)), ledgerChars: ledgerText(records).length };
  } finally {
    await api.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/** Tokens of tool results: each sent once, and summed over every request that carried it. */
function resultTokens(mods, requests) {
  const once = new Map();
  let carried = 0;
  for (const r of requests) {
    for (const res of results(r.body)) {
      const tokens = mods.tokens.tokensOfChars(res.text.length);
      once.set(res.id, tokens);
      carried += tokens;
    }
  }
  return { sent: [...once.values()].reduce((a, b) => a + b, 0), carried };
}

function cost(requests) {
  const sum = (k) => requests.reduce((n, r) => n + r.cache[k], 0);
  return sum('input_tokens') + 1.25 * sum('cache_creation_input_tokens') + 0.1 * sum('cache_read_input_tokens');
}

const int = (x) => Math.round(x).toLocaleString('en-US');

export async function run(opts) {
  const root = opts.repoRoot;
  const mods = {
    session: await load(root, 'src/core/turn/session.js'),
    settings: await load(root, 'src/core/settings/registry.js'),
    store: await load(root, 'src/core/stream/conversationStore.js'),
    searchBuiltins: await load(root, 'src/core/turn/searchBuiltins.js'),
    anthropic: await load(root, 'src/providers/anthropic/anthropicModelClient.js'),
    shape: await load(root, 'src/mcp/shapeToolResult.js'),
    tokens: await load(root, 'src/core/overhead/tokens.js'),
    fixture: await load(root, 'test/fixtures/scriptedMessagesApi.js'),
    random: await load(root, 'test/fixtures/seededRandom.js'),
  };
  const { SETTINGS } = mods.settings;
  const defaults = { maxTokens: SETTINGS.resultsMaxTokens.fallback, thresholdTokens: SETTINGS.resultsThresholdTokens.fallback };
  const ceiling = SETTINGS.mcpMaxResultChars.fallback;
  const whole = { maxTokens: NEVER, thresholdTokens: NEVER };
  const strategies = [
    { label: 'full raw result', maxResultChars: ceiling, results: whole },
    { label: `cut at ${int(OLD_CUT)} chars (before 2026-12-01)`, maxResultChars: OLD_CUT, results: whole },
    { label: `head + reference (Quiver: views of ${int(defaults.maxTokens)}, whole up to ${int(defaults.thresholdTokens)} tokens)`, maxResultChars: ceiling, results: defaults },
    { label: 'oracle: only the decisive record', maxResultChars: ceiling, results: defaults, oracle: true },
  ];
  const rows = [];
  for (const regime of REGIMES) {
    let raw;
    for (const strategy of strategies) {
      const r = await conversation(mods, { regime, task: 'needle', strategy, results: strategy.results });
      const t = resultTokens(mods, r.requests);
      const c = cost(r.requests);
      raw ??= c;
      rows.push([`${regime.name} (${int(r.ledgerChars)} chars)`, strategy.label, int(t.sent), int(t.carried), int(c), `${(c / raw).toFixed(2)}×`, r.requests.length, r.found ? 'yes' : 'NO']);
    }
  }
  const main = {
    title: `Tool results over a conversation: one ledger tool, three regimes, the disputed transaction at ${Math.round(100 * DECISIVE_AT)}% of the ledger (${MODEL}, prompt cache priced)`,
    columns: ['regime', 'strategy', 'result tokens sent', 'result tokens, all requests', 'cost units', 'vs raw', 'requests', 'decisive item found'],
    rows,
    notes: [
      'Each conversation: the task, then two follow-ups answered from the conversation, so whatever a result put in the context is paid again (as cache reads) by every later request.',
      'Cost units = input + 1.25 × cache write + 0.1 × cache read, priced by the scripted API (test/fixtures/promptCache.ts); token counts are ESTIMATES (characters / 3.5), the same for every row.',
      '"result tokens, all requests": the estimated tokens of tool results summed over every request that carried them; "sent": each result counted once.',
      'The scripted model calls read_result only when what it got says the rest is kept, with one grep for the disputed status (context 8: the whole record); with a cut result it cannot narrow the tool\'s arguments, so what was cut stays unseen.',
    ],
  };
  return [main, await sweep(mods, ceiling)];
}

/** quiver.results.maxTokens / thresholdTokens candidates, over the needle in every regime and the aggregate in the two it can be paged in. */
const CANDIDATES = [500, 1000, 2000, 4000, 8000].flatMap((budget) => [1, 2, 4].map((k) => [budget, k * budget]));
/** Between small and medium: a result a little over a small budget, where the threshold decides whether it goes whole. */
const BETWEEN = { name: 'between', records: 60 };
const SWEPT = [REGIMES[0], BETWEEN, REGIMES[1], REGIMES[2]];
const MIX = [...SWEPT.map((regime) => ({ regime, task: 'needle' })), ...SWEPT.slice(0, 3).map((regime) => ({ regime, task: 'aggregate' }))];

async function sweep(mods, ceiling) {
  const rows = [];
  for (const [maxTokens, thresholdTokens] of CANDIDATES) {
    let total = 0;
    let requests = 0;
    const per = [];
    const missed = [];
    for (const { regime, task } of MIX) {
      const r = await conversation(mods, { regime, task, strategy: { label: `${maxTokens}/${thresholdTokens}`, maxResultChars: ceiling }, results: { maxTokens, thresholdTokens } });
      const c = cost(r.requests);
      total += c;
      requests += r.requests.length;
      per.push(int(c));
      if (!r.found) missed.push(`${task} ${regime.name}`);
    }
    rows.push({ cells: [int(maxTokens), int(thresholdTokens), ...per, int(total), requests, missed.length === 0 ? 'all' : `missed: ${missed.join(', ')}`], total, complete: missed.length === 0, maxTokens, thresholdTokens });
  }
  const best = rows.filter((r) => r.complete).reduce((a, b) => (b.total < a.total ? b : a));
  const { SETTINGS } = mods.settings;
  const isDefault = (r) => r.maxTokens === SETTINGS.resultsMaxTokens.fallback && r.thresholdTokens === SETTINGS.resultsThresholdTokens.fallback;
  return {
    title: 'Choosing quiver.results.maxTokens and thresholdTokens: cost units per conversation of the task mix',
    columns: ['maxTokens', 'thresholdTokens', ...MIX.map((m) => `${m.task} ${m.regime.name}`), 'total', 'requests', 'answered', ''],
    rows: rows.map((r) => [...r.cells, [r === best ? 'lowest' : '', isDefault(r) ? 'default' : ''].filter(Boolean).join(', ')]),
    notes: [
      `Regimes as above, and "between" (${BETWEEN.records} transactions, ${int(ledgerText(ledger(mods, BETWEEN.records)).length)} characters): a result a little over a small budget, where the threshold decides.`,
      'needle: the disputed transaction by one grep (as above). aggregate: the merchant with the most money, which needs every record: the model pages through a kept result with read_result until its end (the large ledger is left out: paging 400,000 characters is what a filtering tool is for, at any budget).',
      `A turn may take ${mods.settings.SETTINGS.maxCyclesPerTurn.fallback} model responses (quiver.maxCyclesPerTurn); a task it cannot finish within them counts as missed.`,
      'The default is the candidate with the lowest total among those that answer every task.',
    ],
  };
}
