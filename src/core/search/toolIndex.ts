import type { ToolDefinition } from '../tools/definitions';
import { editDistance } from './fuzzy';
import { InvertedIndex, type Bm25Params, type TermLookup } from './invertedIndex';
import { queryTerms, type QueryOptions, type WeightedTerm } from './query';
import { requestAction, toolAction, type Action } from './action';
import { parametersOf } from './schema';
import { summarize } from './summary';
import { topK } from './topK';
import { analyzeInto, compact, MAX_QUERY_CHARS, type AnalyzeOptions } from './tokenize';
import { REQUEST_VERBS, VOCABULARY } from './vocabulary';

export type SearchField = 'name' | 'server' | 'params' | 'summary' | 'description' | 'paramDocs';
export const SEARCH_FIELDS: readonly SearchField[] = ['name', 'server', 'params', 'summary', 'description', 'paramDocs'];

export interface RankingOptions extends QueryOptions {
  /** Weight of each field; the order of SEARCH_FIELDS. */
  readonly boosts: Readonly<Record<SearchField, number>>;
  /** Also match index terms that start with a query term at least this long (0 = off). */
  readonly prefixMinLength: number;
  /** Weight of a prefix match relative to the exact term. */
  readonly prefixWeight: number;
  /** Match query terms the index lacks to terms this many edits away, scaled by length (0 = off). */
  readonly fuzzy: number;
  /** Weight of a fuzzy match relative to the exact term. */
  readonly fuzzyWeight: number;
  /** Exact and prefix matches on a tool's name rank before every other match. */
  readonly nameTiers: boolean;
  readonly bm25: Bm25Params;
  /** Score is multiplied by (weight of the query words matched) to this power. */
  readonly coverageExponent: number;
  /**
   * Server evidence: a tool's score is multiplied by 1 + this × the share of the query's
   * words (idf over servers) found in its server's name, so "…in our DigitalOcean DNS" lifts
   * every DigitalOcean tool the rest of the query matched (0 = off). The union of a server's
   * tool names as the server's text was tried too and hurt (dev hit@5 0.868 → 0.861).
   */
  readonly serverBoost: number;
  /**
   * A tool whose name says an action other than the one the request asks (see action.ts: "find
   * the matching issue" and `update_issue`) has its score multiplied by 1 − this (0 = off). A
   * name without an action is left alone: a bonus for agreeing (tried, with this at 0.1: dev
   * hit@1 0.761) would in effect lower every tool whose name carries no verb (`whoami`).
   */
  readonly actionClash: number;
}

/**
 * The tuned defaults; `npm run bench` measures each of these choices. The numeric weights come
 * from two rounds of coordinate ascent over a small grid per weight, scored on the development
 * queries only (hit@5 + MRR), with MetaTool kept out of the search as the check: dev hit@5
 * 0.881 → 0.898 and MRR 0.807 → 0.814, MetaTool R@5 0.678 → 0.680 (2026-11-30).
 */
export const DEFAULT_RANKING: RankingOptions = {
  stopWords: true,
  stem: true,
  dropNumbers: true,
  vocabulary: VOCABULARY,
  synonymWeight: 0.5,
  verbs: REQUEST_VERBS,
  verbWeight: 0.4,
  boosts: { name: 6, server: 1, params: 1.5, summary: 1.5, description: 0.5, paramDocs: 0.5 },
  prefixMinLength: 3,
  prefixWeight: 0.25,
  fuzzy: 0.2,
  fuzzyWeight: 0.45,
  nameTiers: true,
  bm25: { k: 1.2, b: 0.5 },
  coverageExponent: 0.3,
  serverBoost: 1,
  actionClash: 0.2,
};

export interface RankedTool {
  readonly name: string;
  /** The BM25F score of the query's words (0 for a tool only its name tier matched). */
  readonly score: number;
  /** Name tier: 2 when the whole query spells the tool's name, 1 when it begins it, else 0; a higher tier ranks first whatever the score. */
  readonly tier: number;
}

export interface SearchOutcome {
  /** Best first, at most `limit` of them. */
  readonly results: readonly RankedTool[];
  /** How many tools matched at all, before `limit`. */
  readonly total: number;
}

export interface SearchRequest {
  readonly limit?: number;
  /** Only tools whose name passes are searched (the searchable set). */
  readonly filter?: (name: string) => boolean;
}

export interface SyncResult {
  readonly added: number;
  readonly removed: number;
  readonly updated: number;
}

interface Entry {
  readonly tool: ToolDefinition;
  readonly summary: string;
  readonly nameKeys: readonly string[];
  /** What the tool's name says it does (undefined when it names no action). */
  readonly action: Action | undefined;
}

const SERVER_FIELD = SEARCH_FIELDS.indexOf('server');
const NAME_TIER_EXACT = 2;
const NAME_TIER_PREFIX = 1;
const MIN_NAME_PREFIX = 3;
// Bounds on how far one query term may fan out, so broad prefixes and long misspelt
// queries cost the same as short ones.
const MAX_PREFIX_EXPANSIONS = 24;
const MAX_FUZZY_TERMS = 8;
const MIN_FUZZY_LENGTH = 4;

/**
 * A search index over a tool catalogue. Build it once and `sync` it whenever the catalogue
 * changes: only tools whose content changed are re-indexed.
 */
export class ToolIndex {
  private readonly entries = new Map<string, Entry>();
  private sortedNameKeys: (readonly [string, string])[] | undefined;
  private readonly index: InvertedIndex;
  private readonly scratch: readonly string[][] = SEARCH_FIELDS.map(() => []);
  private readonly groups = new Map<string, number>();

  constructor(
    tools: readonly ToolDefinition[] = [],
    private readonly options: RankingOptions = DEFAULT_RANKING,
  ) {
    this.index = new InvertedIndex(SEARCH_FIELDS.map((f) => options.boosts[f]), options.bm25);
    this.sync(tools);
  }

  get size(): number {
    return this.entries.size;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  summary(name: string): string | undefined {
    return this.entries.get(name)?.summary;
  }

  /** Makes the index hold exactly `tools`, re-indexing only what was added, removed or changed. */
  sync(tools: readonly ToolDefinition[]): SyncResult {
    const incoming = new Map(tools.map((t) => [t.name, t]));
    let removed = 0;
    let updated = 0;
    let added = 0;
    for (const [name, entry] of this.entries) {
      const next = incoming.get(name);
      if (next === undefined) {
        this.remove(name);
        removed++;
      } else if (next !== entry.tool && !sameContent(next, entry.tool)) {
        this.remove(name);
        this.add(next);
        updated++;
      }
    }
    for (const tool of incoming.values()) {
      if (!this.entries.has(tool.name)) {
        this.add(tool);
        added++;
      }
    }
    return { added, removed, updated };
  }

  search(query: string, request: SearchRequest = {}): SearchOutcome {
    const limit = Math.max(0, request.limit ?? Number.POSITIVE_INFINITY);
    const filter = request.filter ?? (() => true);
    const terms = queryTerms(query, this.options);
    const { slots, scores } = this.scoreTerms(terms, filter);
    this.lowerClashingActions(requestAction(query), slots, scores);
    const tiers = this.options.nameTiers ? this.nameTiers(query, filter) : new Map<number, number>();
    const candidates = [...slots];
    if (tiers.size > 0) {
      const matched = new Set(slots);
      for (const slot of tiers.keys()) if (!matched.has(slot)) candidates.push(slot);
    }
    const better = (a: number, b: number): boolean => {
      const ta = tiers.get(a) ?? 0;
      const tb = tiers.get(b) ?? 0;
      if (ta !== tb) return ta > tb;
      const sa = scores[a] ?? 0;
      const sb = scores[b] ?? 0;
      if (sa !== sb) return sa > sb;
      return this.index.idAt(a) < this.index.idAt(b);
    };
    const best = topK(candidates, Math.min(limit, candidates.length), better);
    return { results: best.map((slot) => ({ name: this.index.idAt(slot), score: scores[slot] ?? 0, tier: tiers.get(slot) ?? 0 })), total: candidates.length };
  }

  private add(tool: ToolDefinition): void {
    const summary = summarize(typeof tool.description === 'string' ? tool.description : '');
    const server = tool.server ?? '';
    let group = this.groups.get(server);
    if (group === undefined) {
      group = this.groups.size;
      this.groups.set(server, group);
    }
    this.index.add(tool.name, fieldsOf(tool, summary, this.options, this.scratch), group);
    const full = compact(tool.name);
    const short = compact(tool.toolName);
    const nameKeys = [full, short].filter((k, i) => k.length > 0 && (i === 0 || k !== full));
    this.entries.set(tool.name, { tool, summary, nameKeys, action: toolAction(tool.toolName) });
    this.sortedNameKeys = undefined;
  }

  private remove(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.index.remove(name);
    this.entries.delete(name);
    this.sortedNameKeys = undefined;
  }

  private scoreTerms(terms: readonly WeightedTerm[], filter: (name: string) => boolean): { slots: readonly number[]; scores: Float64Array } {
    if (terms.length === 0 || this.entries.size === 0) return { slots: [], scores: new Float64Array(0) };
    const { slots, scores, coverage } = this.index.score(this.expand(terms), terms.map((t) => t.weight), filter);
    const exponent = this.options.coverageExponent;
    for (const slot of slots) scores[slot] = (scores[slot] ?? 0) * (coverage[slot] ?? 0) ** exponent;
    if (this.options.serverBoost > 0 && this.groups.size > 1) this.serverEvidence(terms, slots, scores);
    return { slots, scores };
  }

  private lowerClashingActions(wanted: Action | undefined, slots: readonly number[], scores: Float64Array): void {
    if (wanted === undefined || this.options.actionClash <= 0) return;
    const factor = 1 - this.options.actionClash;
    for (const slot of slots) {
      const action = this.entries.get(this.index.idAt(slot))?.action;
      if (action !== undefined && action !== wanted) scores[slot] = (scores[slot] ?? 0) * factor;
    }
  }

  private serverEvidence(terms: readonly WeightedTerm[], slots: readonly number[], scores: Float64Array): void {
    const groupCount = this.groups.size;
    const share = new Map<number, number>();
    let total = 0;
    for (const { term, weight } of terms) {
      const groups = this.index.groupsWithTerm(term, SERVER_FIELD);
      if (groups.size === 0) continue;
      const idf = weight * Math.log(1 + groupCount / groups.size);
      total += idf;
      for (const g of groups) share.set(g, (share.get(g) ?? 0) + idf);
    }
    if (total <= 0) return;
    const boost = this.options.serverBoost / total;
    for (const slot of slots) {
      const s = share.get(this.index.groupAt(slot));
      if (s !== undefined) scores[slot] = (scores[slot] ?? 0) * (1 + boost * s);
    }
  }

  /** Each query term, plus index terms it is a prefix of, plus close spellings when it is unknown. */
  private expand(terms: readonly WeightedTerm[]): TermLookup[] {
    const { prefixMinLength, prefixWeight, fuzzy, fuzzyWeight } = this.options;
    const lookups: TermLookup[] = [];
    let fuzzyBudget = MAX_FUZZY_TERMS;
    terms.forEach(({ term, weight }, source) => {
      lookups.push({ term, weight, source });
      if (prefixMinLength > 0 && term.length >= prefixMinLength) {
        for (const longer of this.index.termsWithPrefix(term, MAX_PREFIX_EXPANSIONS)) {
          const distance = longer.length - term.length;
          lookups.push({ term: longer, weight: (weight * prefixWeight * longer.length) / (longer.length + 0.3 * distance), source });
        }
      }
      // A term the index holds is spelt as some tool spells it: only unknown terms are
      // treated as possible misspellings.
      if (fuzzy > 0 && term.length >= MIN_FUZZY_LENGTH && fuzzyBudget > 0 && !this.index.hasTerm(term)) {
        fuzzyBudget--;
        const max = Math.min(2, Math.max(1, Math.round(term.length * fuzzy)));
        for (const bucket of this.index.termsNear(term, max)) {
          for (const candidate of bucket) {
            const d = editDistance(term, candidate, max);
            if (d <= max) lookups.push({ term: candidate, weight: (weight * fuzzyWeight * candidate.length) / (candidate.length + d), source });
          }
        }
      }
    });
    return lookups;
  }

  /** Slot → name tier for tools whose name the whole query spells or begins. */
  private nameTiers(query: string, filter: (name: string) => boolean): Map<number, number> {
    const tiers = new Map<number, number>();
    const key = compact(query.slice(0, MAX_QUERY_CHARS));
    if (key.length < MIN_NAME_PREFIX) return tiers;
    for (const [k, name] of this.prefixMatches(key)) {
      const slot = this.index.slotOfId(name);
      if (slot !== undefined && filter(name)) tiers.set(slot, Math.max(tiers.get(slot) ?? 0, k === key ? NAME_TIER_EXACT : NAME_TIER_PREFIX));
    }
    return tiers;
  }

  private prefixMatches(key: string): (readonly [string, string])[] {
    this.sortedNameKeys ??= [...this.entries]
      .flatMap(([name, entry]) => entry.nameKeys.map((k) => [k, name] as const))
      .sort((a, b) => compareStrings(a[0], b[0]));
    const sorted = this.sortedNameKeys;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareStrings(sorted[mid]?.[0] ?? '', key) < 0) lo = mid + 1;
      else hi = mid;
    }
    const out: (readonly [string, string])[] = [];
    for (let i = lo; i < sorted.length; i++) {
      const pair = sorted[i];
      if (pair === undefined || !pair[0].startsWith(key)) break;
      out.push(pair);
    }
    return out;
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// Catalogue rebuilds make new definition objects around the same schema objects: compare the
// fields first and serialize the schemas (up to tens of kilobytes) only when those differ.
function sameContent(a: ToolDefinition, b: ToolDefinition): boolean {
  if (a.server !== b.server || a.toolName !== b.toolName || a.title !== b.title || a.description !== b.description) return false;
  return a.inputSchema === b.inputSchema || JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema);
}

// Per-tool bounds on indexed text. Schemas are untrusted and a few real ones run to 80 KB;
// the first words of a description and of each parameter's doc carry nearly all the signal.
// Halving these from 4,000/4,000 moved dev hit@5 and MRR by at most one query and cut the
// text tokenized at 10,000 tools by about a quarter (bench, 2026-11-30).
const MAX_DESCRIPTION_CHARS = 2_000;
const MAX_PARAM_DOC_CHARS = 600;
const MAX_PARAM_DOC_EACH = 300;

/**
 * A tool's index terms, field by field in SEARCH_FIELDS order, written into `scratch` (one
 * array per field, emptied first): reusing them spares a million short-lived array slots
 * per 10,000 tools.
 */
function fieldsOf(tool: ToolDefinition, summary: string, options: AnalyzeOptions, scratch: readonly string[][]): readonly string[][] {
  for (const field of scratch) field.length = 0;
  const [name = [], server = [], paramNames = [], summaryTerms = [], descriptionTerms = [], paramDocs = []] = scratch;
  const params = parametersOf(tool.inputSchema);
  const description = typeof tool.description === 'string' ? tool.description : '';
  analyzeInto(tool.toolName, options, name);
  analyzeInto(compact(tool.toolName), options, name);
  analyzeInto(tool.title ?? tool.annotations?.title ?? '', options, name);
  let budget = MAX_PARAM_DOC_CHARS;
  const doc = (text: string): void => {
    if (budget <= 0) return;
    const cap = Math.min(budget, MAX_PARAM_DOC_EACH);
    analyzeInto(text.length > cap ? text.slice(0, cap) : text, options, paramDocs);
    budget -= Math.min(text.length, cap) + 1;
  };
  for (const p of params) {
    analyzeInto(p.name, options, paramNames);
    if (p.description !== undefined) doc(p.description);
    p.enumValues.forEach(doc);
  }
  analyzeInto(tool.server ?? '', options, server);
  analyzeInto(summary, options, summaryTerms);
  analyzeInto(description.length > MAX_DESCRIPTION_CHARS ? description.slice(0, MAX_DESCRIPTION_CHARS) : description, options, descriptionTerms);
  return scratch;
}
