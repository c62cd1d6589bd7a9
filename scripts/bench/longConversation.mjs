// Context management over a long conversation: issue 29's 148 messages (about 300 requests) on
// claude-sonnet-5-5, the conversation its integration test plays (test/fixtures/longConversation.ts:
// results of 3,000–24,000 characters, three promotions, an Unload and a /set, thinking on), through
// the real turn loop and @anthropic-ai/sdk against the scripted Messages API, which clears, compacts
// and prices the prompt cache as the API does (test/fixtures/messagesApi/context.ts,
// test/fixtures/promptCache.ts). Once with each choice of edits: none, clearing old tool results
// only, compaction only, and both (quiver.context.management "auto").
import { loadCompiled as load } from './compiled.mjs';

const MODES = [
  { mode: 'off', label: 'none (off)' },
  { mode: 'clearingOnly', label: 'clearing only' },
  { mode: 'compactionOnly', label: 'compaction only' },
  { mode: 'auto', label: 'both (auto, the default)' },
];

/**
 * Token sums over the requests the API answered, and over the compactions Quiver recorded from
 * `usage.iterations` (the summarizing step reads the whole prompt, uncached, and is billed).
 */
function totals(requests, compactions) {
  const sum = (k) => requests.reduce((n, r) => n + (r.cache?.[k] ?? 0), 0);
  const compactionInput = compactions.reduce((n, c) => n + c.inputTokens, 0);
  const input = sum('input_tokens') + compactionInput;
  const write = sum('cache_creation_input_tokens');
  const read = sum('cache_read_input_tokens');
  return { input, write, read, compactionInput, summaryOutput: compactions.reduce((n, c) => n + c.outputTokens, 0), cost: input + 1.25 * write + 0.1 * read, readShare: read / (input + write + read) };
}

async function measure(fixture, mode) {
  const { h, failed } = await fixture.runLongConversation({ contextManagement: mode.mode, compactionToolChanges: true, cacheTtl: '5m' });
  try {
    const requests = h.api.requests;
    const compactions = h.conversation.events().flatMap((e) => (e.type === 'usage' && e.compacted !== undefined ? [e.compacted] : []));
    const refused = requests.filter((r) => r.rejected !== undefined);
    // The largest prompt a step read: a reply's (after clearing and compaction) or a compaction's (the whole conversation before it).
    const peak = Math.max(0, ...requests.map((r) => r.cache?.prompt_tokens ?? 0), ...compactions.map((c) => c.inputTokens));
    return { requests, refused, failed, compactions, peak, clearings: requests.filter((r) => r.cleared !== undefined).length, t: totals(requests, compactions) };
  } finally {
    await h.close();
  }
}

const int = (x) => Math.round(x).toLocaleString('en-US');

export async function run(opts) {
  const fixture = await load(opts.repoRoot, 'test/fixtures/longConversation.js');
  const { contextManagementFor } = await load(opts.repoRoot, 'src/core/context/index.js');
  const { fallbackCapabilities } = await load(opts.repoRoot, 'src/providers/anthropic/modelTable.js');
  const { modelSpec } = await load(opts.repoRoot, 'test/fixtures/messagesApi/models.js');
  const { MODEL } = fixture;
  const { clearing, compaction } = contextManagementFor(fallbackCapabilities(MODEL), 'auto');
  const started = Date.now();
  const rows = [];
  const notes = [];
  let none;
  for (const mode of MODES) {
    const m = await measure(fixture, mode);
    none ??= m.t.cost;
    rows.push([mode.label, m.requests.length, m.refused.length, m.clearings, m.compactions.length, int(m.peak), int(m.t.input), int(m.t.write), int(m.t.read), `${Math.round(100 * m.t.readShare)}%`, int(m.t.cost), `${(m.t.cost / none).toFixed(2)}×`]);
    if (m.refused.length > 0) notes.push(`${mode.label}: ${m.refused.length} request(s) refused (its cost counts the answered ones only), the first at turn ${m.failed[0]?.turn ?? '?'}: ${m.refused[0].rejected}`);
    if (m.compactions.length > 0) notes.push(`${mode.label}: the compaction steps read ${int(m.t.compactionInput)} tokens (in "input") and wrote summaries of ${int(m.t.summaryOutput)} output tokens (left out).`);
  }
  return {
    title: `Context management over a ${fixture.TURNS}-message conversation (results of 3,000–24,000 chars, 3 promotions, an Unload, a /set), ${MODEL} with thinking`,
    columns: ['edits asked for', 'requests', 'refused', 'clearings', 'compactions', 'peak request', 'input', 'cache write', 'cache read', 'read share', 'cost units', 'vs none'],
    rows,
    notes: [
      'Cost units = input + 1.25 × cache write + 0.1 × cache read (the API price ratios for 5-minute writes and reads, as in the prompt-cache table: every breakpoint at the 5-minute TTL here); output tokens are left out.',
      '"peak request" = input tokens of the largest prompt one step read (a compaction step reads the whole conversation before its boundary); "read share" = cache read ÷ (input + cache write + cache read).',
      `Clearing past ${int(clearing.atTokens)} input tokens (keeping the latest ${clearing.keepToolUses} tool uses, at least ${int(clearing.clearAtLeast)} cleared), compaction past ${int(compaction.atTokens)}: src/core/context/policy.ts's figures for ${MODEL}, the same alone as together.`,
      `Token counts are ESTIMATES (JSON length / 3.5) made by the scripted API; ${MODEL}'s context window is ${int(modelSpec(MODEL).contextWindow)} tokens.`,
      ...notes,
      `This section took ${Math.round((Date.now() - started) / 1000)} s.`,
    ],
  };
}
