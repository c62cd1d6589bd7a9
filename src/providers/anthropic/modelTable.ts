import { EFFORTS, type Effort, type ModelCapabilities } from '../../core/models';

/*
 * The fallback table: what each current model accepts, from Anthropic's documentation, for when
 * `/v1/models` cannot be read (no key yet, a proxy without the endpoint, no network) and for the
 * fields the models list does not describe. Sources, cited beside each fact:
 *
 * [S55]  https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5
 *        forced tool_choice refused; thinking `disabled` refused, `between_tools` is the lowest
 *        setting and runs only at effort low, medium or high (xhigh and max refuse it).
 * [O55]  https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5
 *        thinking cannot be disabled (adaptive always on); forced tool use refused; the first
 *        three breaking changes apply to Fable 5.1 too.
 * [F51]  https://platform.claude.com/docs/en/models/fable-5-1/whats-new-fable-5-1
 *        forced tool use refused on Fable 5.1 and Mythos 5.1.
 * [F52]  https://platform.claude.com/docs/en/models/fable-5-2/whats-new-fable-5-2
 *        Fable 5.2 / Mythos 5.2: 1M context, 128k output, adaptive thinking always on, prefix
 *        check on every account.
 * [PFX]  https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks
 *        models that run the prefix check: fable-5-2, mythos-5-2, fable-5-1, mythos-5-1,
 *        opus-5-5, sonnet-5-5, haiku-5-5.
 * [MCS]  https://platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages
 *        `role: "system"` messages: Fable 5.1, Mythos 5.1, Fable 5, Mythos 5, Opus 5.5,
 *        Opus 4.8, Opus 5, Sonnet 5.5, Haiku 5.5 (no beta header); not Sonnet 5.
 *        Mid-conversation tool changes (tool_addition / tool_removal, beta
 *        `mid-conversation-tool-changes-2026-07-01`) are the same page's second half, whose
 *        model list the search could not reach; the table follows what reads it: Opus 4.8,
 *        Opus 5, Opus 5.5, Sonnet 5.5, Haiku 5.5, Fable and Mythos 5 and 5.1 (langchainjs
 *        @langchain/anthropic 1.5.13 release notes), Opus 5 [OP5]; never Sonnet 5, which has
 *        no system messages at all.
 * [OP5]  https://platform.claude.com/docs/about-claude/models/whats-new-opus-5
 *        Opus 5: mid-conversation tool changes (beta); `disabled` accepted at effort high or below.
 * [CMP]  https://platform.claude.com/docs/en/build-with-claude/compaction-threshold and
 *        .../compaction-on-demand (page front matter, "supportedModels"): fable-5-1, mythos-5-1,
 *        fable-5, mythos-5, mythos-preview, opus-5-5, opus-5, opus-4-8, opus-4-7, opus-4-6,
 *        sonnet-5-5, sonnet-5, sonnet-4-6, haiku-5-5 (not fable-5-2 / mythos-5-2 nor the 4.5s).
 * [CE]   https://platform.claude.com/docs/en/build-with-claude/context-editing (front matter):
 *        every model of this table (fable-5-2 and mythos-5-2 in the later copies of the page).
 * [TS]   https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool
 *        defer_loading + tool_reference: every model of this table.
 * [EFF]  https://platform.claude.com/docs/en/build-with-claude/effort
 *        effort levels per model (xhigh from Opus 4.7 on; Opus 4.6 and Sonnet 4.6 stop at max
 *        without xhigh; Sonnet 4.5 and Haiku 4.5 take none). Read through the summaries that
 *        cite it (the search could not open the page itself); sources disagree on `max` for
 *        Opus 4.5, so the table gives it low, medium and high only.
 * [OVR]  https://platform.claude.com/docs/en/docs/legacy-model-guide and /docs/claude/docs/models-overview
 *        adaptive thinking: Opus 4.7, Opus 4.6, Sonnet 4.6 yes, Haiku 4.5 no; extended (budget)
 *        thinking: Opus 4.7 no. Sonnet 4.6's max output: 64k there, 128K on its model page;
 *        the table takes the smaller.
 * [M:x]  https://platform.claude.com/docs/en/models/x/overview — context window and max output.
 *
 * Fable 5.2 and Mythos 5.2 appear in the prefix-check list [PFX] but not yet in the translated
 * copies of [MCS] that the search could read; [F52] lists no removed feature, so they are given
 * Fable 5.1's system messages and tool changes. The models list cannot tell either way.
 */

const K = 1_000;
const M = 1_000_000;

type TableRow = Omit<ModelCapabilities, 'id' | 'source'>;

const ALL_EFFORTS = EFFORTS;
/** Opus 4.6 and Sonnet 4.6 predate xhigh [EFF]. */
const NO_XHIGH: readonly Effort[] = ['low', 'medium', 'high', 'max'];

/** Adaptive always on: `disabled` refused [O55][F52]; `between_tools` is documented for Sonnet 5.5 only [S55]. */
const ALWAYS_ADAPTIVE = { supported: true, adaptive: true, betweenTools: false, disabled: false } as const;

/** The 5.1-and-later generation: forced tool use refused, prefix check, system messages and tool changes. */
const PRESERVED: Pick<TableRow, 'preservedThinking' | 'forcedToolChoice' | 'systemMessages' | 'toolChanges' | 'toolSearch' | 'compaction' | 'contextEditing'> = {
  preservedThinking: true, // [PFX]
  forcedToolChoice: false, // [S55][O55][F51]
  systemMessages: true, // [MCS]
  toolChanges: true, // [MCS]
  toolSearch: true, // [TS]
  compaction: true, // [CMP]
  contextEditing: true, // [CE]
};

const FABLE_5_1: TableRow = { ...PRESERVED, thinking: ALWAYS_ADAPTIVE, efforts: ALL_EFFORTS, maxTokens: 128 * K, contextWindow: 1 * M }; // [F51][M:fable-5-1]
const FABLE_5_2: TableRow = { ...FABLE_5_1, compaction: false }; // [F52]; not in [CMP]'s list
/** Fable 5 and Mythos 5: adaptive is the only thinking mode; forced tool use still accepted (5.1 made it breaking [F51]). */
const FABLE_5: TableRow = {
  preservedThinking: false, // not in [PFX]
  forcedToolChoice: true,
  systemMessages: true, // [MCS]
  toolChanges: true, // [MCS]
  toolSearch: true, // [TS]
  compaction: true, // [CMP]
  contextEditing: true, // [CE]
  thinking: ALWAYS_ADAPTIVE,
  efforts: ALL_EFFORTS, // [EFF]
  maxTokens: 128 * K, // [M:fable-5]
  contextWindow: 1 * M,
};

/** Claude 4.x before Opus 4.8: none of the mid-conversation features [MCS]; forced tool choice accepted. */
const LEGACY: Pick<TableRow, 'preservedThinking' | 'forcedToolChoice' | 'systemMessages' | 'toolChanges' | 'toolSearch' | 'compaction' | 'contextEditing'> = {
  preservedThinking: false,
  forcedToolChoice: true,
  systemMessages: false,
  toolChanges: false,
  toolSearch: true, // [TS]
  compaction: true, // [CMP]: every 4.x from Opus 4.6 on; the 4.5s below take it off
  contextEditing: true, // [CE]
};
/** Adaptive thinking, or none (Opus 4.6 and Sonnet 4.6 also take a budget, which Quiver does not send). */
const ADAPTIVE_OR_OFF = { supported: true, adaptive: true, betweenTools: false, disabled: true } as const;
/** The 4.5 models think only with a caller-set budget: Quiver sends no `thinking` field to them. */
const BUDGET_ONLY = { supported: true, adaptive: false, betweenTools: false, disabled: true } as const;

const TABLE: Readonly<Record<string, TableRow>> = {
  'claude-fable-5-2': FABLE_5_2,
  'claude-mythos-5-2': FABLE_5_2, // shares Fable 5.2's specs [F52]
  'claude-fable-5-1': FABLE_5_1,
  'claude-mythos-5-1': FABLE_5_1, // same capabilities as Fable 5.1 [F51]
  'claude-opus-5-5': { ...PRESERVED, thinking: ALWAYS_ADAPTIVE, efforts: ALL_EFFORTS, maxTokens: 128 * K, contextWindow: 1 * M }, // [O55][M:opus-5-5]
  'claude-sonnet-5-5': {
    ...PRESERVED,
    thinking: { supported: true, adaptive: true, betweenTools: true, disabled: false }, // [S55]
    efforts: ALL_EFFORTS, // same levels as Sonnet 5, default high [S55]
    maxTokens: 128 * K, // [M:sonnet-5-5]
    contextWindow: 1 * M,
  },
  'claude-haiku-5-5': { ...PRESERVED, thinking: ALWAYS_ADAPTIVE, efforts: ALL_EFFORTS, maxTokens: 128 * K, contextWindow: 1 * M }, // adaptive with effort [M:haiku-5-5]
  'claude-sonnet-5': {
    ...LEGACY,
    systemMessages: false, // explicitly not on Sonnet 5 [MCS]
    thinking: { supported: true, adaptive: true, betweenTools: false, disabled: true }, // adaptive on by default, `disabled` turns it off [M:sonnet-5]
    efforts: ALL_EFFORTS,
    maxTokens: 128 * K, // [M:sonnet-5]
    contextWindow: 1 * M,
  },
  'claude-opus-5': {
    ...LEGACY,
    systemMessages: true, // [MCS]
    toolChanges: true, // beta [OP5]
    thinking: { supported: true, adaptive: true, betweenTools: false, disabled: true }, // `disabled` only at effort high or below [OP5]
    efforts: ALL_EFFORTS,
    maxTokens: 128 * K, // [OP5]
    contextWindow: 1 * M,
  },
  'claude-fable-5': FABLE_5,
  'claude-mythos-5': FABLE_5, // shares Fable 5's specs [M:fable-5]
  // Thinking is off unless asked for on every Opus before Opus 5 [OP5], so `disabled` is accepted.
  'claude-opus-4-8': { ...LEGACY, systemMessages: true, toolChanges: true, thinking: ADAPTIVE_OR_OFF, efforts: ALL_EFFORTS, maxTokens: 128 * K, contextWindow: 1 * M }, // [MCS][M:opus-4-8]
  'claude-opus-4-7': { ...LEGACY, thinking: ADAPTIVE_OR_OFF, efforts: ALL_EFFORTS, maxTokens: 128 * K, contextWindow: 1 * M }, // adaptive only, xhigh added [OVR][EFF][M:opus-4-7]
  'claude-opus-4-6': { ...LEGACY, thinking: ADAPTIVE_OR_OFF, efforts: NO_XHIGH, maxTokens: 128 * K, contextWindow: 1 * M }, // [OVR][EFF][M:opus-4-6]
  'claude-sonnet-4-6': { ...LEGACY, thinking: ADAPTIVE_OR_OFF, efforts: NO_XHIGH, maxTokens: 64 * K, contextWindow: 1 * M }, // [OVR][EFF]
  'claude-haiku-4-5': { ...LEGACY, compaction: false, thinking: BUDGET_ONLY, efforts: [], maxTokens: 64 * K, contextWindow: 200 * K }, // [OVR][EFF][M:haiku-4-5]
  'claude-sonnet-4-5': { ...LEGACY, compaction: false, thinking: BUDGET_ONLY, efforts: [], maxTokens: 64 * K, contextWindow: 200 * K }, // [EFF][M:sonnet-4-5]
  'claude-opus-4-5': { ...LEGACY, compaction: false, thinking: BUDGET_ONLY, efforts: ['low', 'medium', 'high'], maxTokens: 64 * K, contextWindow: 200 * K }, // [EFF][M:opus-4-5]
};

/**
 * For a model the table does not know: the shape no Claude model refuses.
 * - No forced tool choice (Sonnet 5.5, Opus 5.5 and Fable 5.1+ refuse it; `auto` is taken everywhere).
 * - No `role: "system"` messages and no tool changes: Sonnet 5 and every model before Opus 4.8
 *   refuse them, and the fallback (text in the user message) works on all.
 * - No deferred tools: a gateway or an older model may refuse `defer_loading`; the tools array always works.
 * - Thinking: no `thinking` field at all. `adaptive` is refused by the 4.5 models and `disabled`
 *   by Sonnet 5.5, Opus 5.5 and Fable, but leaving the field out is accepted by every model and
 *   means each model's own default (adaptive on every model where thinking is on by default).
 *   So Quiver sends `adaptive` only where the table or `/v1/models` says the model takes it.
 * - No effort: Sonnet 4.5 and Haiku 4.5 refuse the parameter.
 * - Prefix check assumed on: Quiver's requests are append-only anyway, so assuming it costs nothing.
 * - 4,096 output tokens: the smallest limit of any Claude model, so no `max_tokens` is too large.
 * - 200,000 tokens of context: the smallest window of the current models.
 */
const UNKNOWN: TableRow = {
  preservedThinking: true,
  forcedToolChoice: false,
  systemMessages: false,
  toolChanges: false,
  toolSearch: false,
  compaction: false,
  contextEditing: false,
  thinking: { supported: false, adaptive: false, betweenTools: false, disabled: false },
  efforts: [],
  maxTokens: 4096,
  contextWindow: 200 * K,
};

/** A dated snapshot (`claude-haiku-4-5-20251001`) or a version tag (`@20251001`) of a table model. */
const SNAPSHOT_SUFFIX = /^[-@]\d{8}$/;

/** The table row `modelId` names: its own, or that of the alias its dated snapshot belongs to. */
function tableRowOf(modelId: string): TableRow | undefined {
  const exact = TABLE[modelId];
  if (exact) return exact;
  for (const [alias, row] of Object.entries(TABLE)) {
    if (modelId.startsWith(alias) && SNAPSHOT_SUFFIX.test(modelId.slice(alias.length))) return row;
  }
  return undefined;
}

/** Whether the table knows `modelId` (an alias of it or one of its dated snapshots). */
export function isTableModel(modelId: string): boolean {
  return tableRowOf(modelId) !== undefined;
}

/** The models the table knows, newest first: the offer when the models list cannot be read. */
export const TABLE_MODEL_IDS: readonly string[] = Object.keys(TABLE);

/** What `modelId` accepts by the table; for a model it does not know, the shape no model refuses. */
export function fallbackCapabilities(modelId: string): ModelCapabilities {
  return { id: modelId, ...(tableRowOf(modelId) ?? UNKNOWN), source: 'fallback_table' };
}
