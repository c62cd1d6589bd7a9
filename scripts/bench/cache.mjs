// Prompt-cache cost of whole conversations: the real turn loop and @anthropic-ai/sdk against the
// scripted Messages API, which prices every request by Anthropic's prompt-cache rules
// (test/fixtures/promptCache.ts: prefix tools → system → messages, breakpoints, 20-block lookback,
// 1,024-token minimum, deferred tools outside the prefix, a tool_reference counted as its
// definition where it stands). Tokens are ESTIMATES (JSON / 3.5), the same for every rendering.
// Rows: every tool on; "*" discoverable with promotions in the tools array (Quiver before
// 2026-12-01, and the quiver.anthropic.promotionRendering fallback) and with deferred tools and
// tool references (the default), each without and with search_tools' load budget
// (quiver.search.maxLoadTokens); and an oracle: only the tools the conversation calls, each
// added just before its first call, no search. The model is claude-sonnet-5-5 as the scripted
// API answers for it: every reply opens with a signed thinking block that goes back in every
// later request, and the prefix check refuses any request that changed what came before.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCompiled as load } from './compiled.mjs';
import { callable } from './offered.mjs';
import { staticToolSource } from './toolSource.mjs';
import { benchSession } from './benchSession.mjs';

const CATALOGUES = [
  ['modelcontextprotocol__server-github.json', 'github'],
  ['notionhq__notion-mcp-server.json', 'notion'],
  ['sentry__mcp-server.json', 'sentry'],
  ['stripe__mcp.json', 'stripe'],
];

// Each message either needs one tool (found by `query` when it is not offered yet) and gets a
// result of `chars` characters, or is answered from the conversation.
const SIX = [
  { user: 'Which issues are open in acme/quiver?', tool: 'github__list_issues', query: 'list github issues', chars: 12_000 },
  { user: 'Summarize the newest one.' },
  { user: 'Is that crash in Sentry? Find the matching issue.', tool: 'sentry__search_issues', query: 'search sentry issues', chars: 24_000 },
  { user: 'Write a short incident page in Notion.', tool: 'notion__API-post-page', query: 'create notion page', chars: 3_000 },
  { user: 'Which payments did the reporting customer make this month?', tool: 'stripe__list_payment_intents', query: 'list stripe payment intents', chars: 8_000 },
  { user: 'And which events belong to that Sentry issue?', tool: 'sentry__search_issue_events', query: 'sentry issue events', chars: 16_000 },
];
export const TWELVE = [
  ...SIX,
  { user: 'Comment on the GitHub issue with the Notion link.', tool: 'github__add_issue_comment', query: 'comment on github issue', chars: 3_000 },
  { user: 'Show me that issue again, with its labels.', tool: 'github__get_issue', query: 'get github issue details', chars: 6_000 },
  { user: 'Summarize everything so far.' },
  { user: "List this customer's subscriptions.", tool: 'stripe__list_subscriptions', query: 'list stripe subscriptions', chars: 5_000 },
  { user: 'Add the subscription details to the Notion page.', tool: 'notion__API-patch-block-children', query: 'append blocks to notion page', chars: 4_000 },
  { user: 'Which Sentry user am I?', tool: 'sentry__whoami', query: 'sentry current user', chars: 3_000 },
];

export const ALL_ON = { '*': { enable: 'on', run: 'unattended' } };
export const DISCOVERABLE = { '*': { enable: 'discoverable', run: 'unattended' } };

/** The rows; `budget: 'default'` is quiver.search.maxLoadTokens' default, Infinity no budget. */
const MODES = [
  { label: 'every tool on', tools: ALL_ON, rendering: 'toolReference', budget: 'default' },
  { label: 'promotion in tools array, no load budget (before 2026-12-01)', tools: DISCOVERABLE, rendering: 'toolsArray', budget: Infinity },
  { label: 'promotion in tools array, load budget (promotionRendering fallback)', tools: DISCOVERABLE, rendering: 'toolsArray', budget: 'default' },
  { label: 'deferred + tool_reference, no load budget (before)', tools: DISCOVERABLE, rendering: 'toolReference', budget: Infinity },
  { label: 'deferred + tool_reference, load budget (Quiver)', tools: DISCOVERABLE, rendering: 'toolReference', budget: 'default' },
  { label: 'oracle: only the tools it calls, each added just before its first call', tools: 'oracle', rendering: 'toolReference', budget: 'default' },
];

const MODEL = 'claude-sonnet-5-5';

/** The oracle's settings at message `index`: on, the tools called so far and the one it needs now; everything else off. */
function oracleTools(messages, index) {
  const needed = messages.slice(0, index + 1).flatMap((m) => (m.tool ? [m.tool] : []));
  return { '*': { enable: 'off' }, ...Object.fromEntries(needed.map((name) => [name, { enable: 'on', run: 'unattended' }])) };
}

export function catalogue(dir) {
  return CATALOGUES.flatMap(([file, server]) =>
    JSON.parse(readFileSync(join(dir, file), 'utf8')).tools.map((t) => ({ name: `${server}__${t.name}`, server, toolName: t.name, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object' } })),
  );
}

/** A tool result of exactly `chars` characters: JSON-lines records, as list endpoints return. */
export function resultText(tool, chars) {
  let text = '';
  for (let i = 1; text.length < chars; i++) text += `${JSON.stringify({ id: `${tool}-${i}`, title: `Record ${i} returned by ${tool}`, status: i % 3 === 0 ? 'closed' : 'open', updated: '2026-11-30T12:00:00Z', note: 'lorem ipsum dolor sit amet '.repeat(3) })}\n`;
  return text.slice(0, chars);
}

/** The latest user message: the one the request answers (an appended system message may follow it). */
const lastUser = (body) => [...body.messages].reverse().find((m) => m.role === 'user');

/** The search_tools answer the request ends with, parsed, or undefined: in its result, or beside it when the result holds only references. */
function lastSearch(body) {
  const blocks = lastUser(body)?.content ?? [];
  const result = blocks.find((b) => b.type === 'tool_result' && String(b.tool_use_id).startsWith('search-'));
  if (!result) return undefined;
  const own = Array.isArray(result.content) ? result.content.find((c) => c.type === 'text') : undefined;
  const textBlock = own ?? blocks.find((b) => b.type === 'text');
  return textBlock ? JSON.parse(textBlock.text) : undefined;
}

/**
 * The scripted model, one reply per request, chosen from what the request gives it: it calls the
 * tool a message needs when that tool is callable, searches for it when not (with the message's
 * query, then by exact name when a search listed it under not_loaded), and answers in text after
 * the tool's result or when the message needs no tool.
 */
export function modelReply(fx, messages, body) {
  const { reply, text, toolUse } = fx;
  const userTexts = body.messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b.text));
  const index = messages.findLastIndex((m) => userTexts.includes(m.user));
  const message = messages[index];
  const last = lastUser(body).content;
  const answered = last.some((b) => b.type === 'tool_result' && b.tool_use_id === `call-${index}`);
  if (!message.tool || answered) return reply(text(answered ? `Done: ${message.user}` : `Here is the summary you asked for (${index}).`));
  if (callable(body).has(message.tool)) return reply(toolUse(`call-${index}`, message.tool, {}));
  const search = lastSearch(body);
  if (search === undefined) return reply(text('Let me find a tool for that.'), toolUse(`search-${index}`, 'search_tools', { query: message.query }));
  if ((search.not_loaded ?? []).some((t) => t.name === message.tool)) return reply(toolUse(`search-${index}-by-name`, 'search_tools', { query: message.tool, limit: 1 }));
  throw new Error(`message ${index + 1}: the search for "${message.query}" did not find ${message.tool}`);
}

async function runConversation(mods, opts, messages, mode) {
  const fx = mods.fixture;
  const tools = catalogue(join(opts.bench, 'catalogs'));
  const api = await fx.ScriptedMessagesApi.start();
  let current = 0;
  const folder = await mkdtemp(join(tmpdir(), 'quiver-bench-cache-'));
  const ran = [];
  const source = staticToolSource(tools, async (name) => {
    ran.push(name);
    const chars = messages.find((m) => m.tool === name)?.chars ?? 1_000;
    return { content: [{ type: 'text', text: resultText(name, chars) }], isError: false };
  });

  try {
    const session = await benchSession(mods, {
      folder, source, apiUrl: api.url, client: { promotionRendering: mode.rendering },
      settings: () => ({ tools: mode.tools === 'oracle' ? oracleTools(messages, current) : mode.tools, model: MODEL, maxCyclesPerTurn: 10, ...(mode.budget === 'default' ? {} : { searchLoadBudget: mode.budget }) }),
    });
    for (const [i, message] of messages.entries()) {
      current = i;
      // At most: search, search by name, call, answer. Every step is the same reader of the
      // request, so the ones a turn leaves unused simply answer the next message's requests.
      const turnSteps = message.tool ? 4 : 1;
      api.enqueue(...Array.from({ length: turnSteps }, () => ({ kind: 'decide', decide: (body) => modelReply(fx, messages, body) })));
      const result = await session.send(message.user, new AbortController().signal);
      if (result.reason !== 'done') throw new Error(`${mode.label}, message ${i + 1}: the turn ended ${result.reason}: ${result.message ?? ''}`);
      if (message.tool && ran.at(-1) !== message.tool) throw new Error(`${mode.label}, message ${i + 1}: ${message.tool} did not run (the search did not return it?)`);
    }
    const rejected = api.requests.filter((r) => r.rejected !== undefined);
    if (rejected.length > 0) throw new Error(`${mode.label}: the API rejected ${rejected.length} request(s): ${rejected[0].rejected}`);
    return api.requests;
  } finally {
    await api.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * For each request whose last message carries a search_tools result that promoted something: the
 * share of the request before it read from cache, or undefined when that request was too short
 * to be cached at all (under the API's minimum cacheable prompt), so there was nothing to read.
 */
function afterPromotion(requests, minCacheable) {
  return requests.flatMap((r, i) => {
    const changed = r.body.messages.at(-1)?.role === 'system';
    const searched = lastSearch(r.body)?.results?.some((t) => t.status === 'usable') === true;
    if (!(searched || changed) || i === 0) return [];
    const before = requests[i - 1].cache.prompt_tokens;
    return [before < minCacheable ? undefined : r.cache.cache_read_input_tokens / before];
  });
}

function totals(requests) {
  const sum = (k) => requests.reduce((n, r) => n + r.cache[k], 0);
  const input = sum('input_tokens');
  const write = sum('cache_creation_input_tokens');
  const read = sum('cache_read_input_tokens');
  return { input, write, read, cost: input + 1.25 * write + 0.1 * read };
}

const pct = (x) => `${Math.round(100 * x)}%`;
const int = (x) => Math.round(x).toLocaleString('en-US');

export async function run(opts) {
  const mods = {
    session: await load(opts.repoRoot, 'src/core/turn/session.js'),
    settings: await load(opts.repoRoot, 'src/core/settings/registry.js'),
    store: await load(opts.repoRoot, 'src/core/stream/conversationStore.js'),
    searchBuiltins: await load(opts.repoRoot, 'src/core/turn/searchBuiltins.js'),
    anthropic: await load(opts.repoRoot, 'src/providers/anthropic/anthropicModelClient.js'),
    fixture: await load(opts.repoRoot, 'test/fixtures/scriptedMessagesApi.js'),
    models: await load(opts.repoRoot, 'test/fixtures/messagesApi/models.js'),
  };
  const minCacheable = mods.models.modelSpec(MODEL).minCacheableTokens;
  const rows = [];
  for (const [label, messages] of [['6 messages', SIX], ['12 messages', TWELVE]]) {
    let allOn;
    for (const mode of MODES) {
      const requests = await runConversation(mods, opts, messages, mode);
      const t = totals(requests);
      allOn ??= t.cost;
      const shares = afterPromotion(requests, minCacheable);
      rows.push([label, mode.label, requests.length, int(t.input), int(t.write), int(t.read), int(t.cost), `${(t.cost / allOn).toFixed(2)}×`, shares.length > 0 ? shares.map((x) => (x === undefined ? 'n/a' : pct(x))).join(' ') : '—']);
    }
  }
  return {
    title: 'Prompt-cache cost of a conversation: github, notion, sentry, stripe catalogues (94 tools), tool results of 3,000–24,000 chars',
    columns: ['conversation', 'rendering', 'requests', 'input', 'cache write', 'cache read', 'cost units', 'vs all on', 'read after each promotion or change'],
    rows,
    notes: [
      'Cost units = input + 1.25 × cache write + 0.1 × cache read (the API price ratios for 5-minute writes and reads); output tokens are the same in every row and left out.',
      `"read after each promotion or change" = cache read of the request that carries a search result that loaded a tool, or an appended tool change, ÷ the whole prompt of the request before it; n/a where that prompt was under the ${minCacheable.toLocaleString('en-US')}-token minimum ${MODEL} caches.`,
      'Token counts are ESTIMATES (JSON length / 3.5) made by the scripted API (test/fixtures/promptCache.ts), identical across rows; the scripted model searches with the real ranker (default limit 10) only for a tool it does not have yet, and by exact name when a search listed it under not_loaded.',
    ],
  };
}
