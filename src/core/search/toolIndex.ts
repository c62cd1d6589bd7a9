import MiniSearch from 'minisearch';
import type { ToolDefinition } from '../tools';
import { queryTerms, type QueryOptions, type WeightedTerm } from './query';
import { parametersOf } from './schema';
import { summarize } from './summary';
import { analyze, compact, MAX_QUERY_CHARS, type AnalyzeOptions } from './tokenize';
import { VOCABULARY } from './vocabulary';

export type SearchField = 'name' | 'server' | 'params' | 'summary' | 'description' | 'paramDocs';
export const SEARCH_FIELDS: readonly SearchField[] = ['name', 'server', 'params', 'summary', 'description', 'paramDocs'];

export interface RankingOptions extends QueryOptions {
  readonly boosts: Readonly<Record<SearchField, number>>;
  /** Also match index terms that start with a query term at least this long (0 = off). */
  readonly prefixMinLength: number;
  /** Edit distance ratio for query terms the index does not contain at all (0 = off). */
  readonly fuzzy: number;
  /** Exact and prefix matches on a tool's name rank before every other match. */
  readonly nameTiers: boolean;
  readonly bm25: { readonly k: number; readonly b: number; readonly d: number };
}

/** The tuned defaults; `npm run bench` measures each of these choices. */
export const DEFAULT_RANKING: RankingOptions = {
  stopWords: true,
  stem: true,
  vocabulary: VOCABULARY,
  synonymWeight: 0.5,
  boosts: { name: 3, server: 1, params: 1.5, summary: 1.5, description: 1, paramDocs: 0.5 },
  prefixMinLength: 4,
  fuzzy: 0.2,
  nameTiers: true,
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
};

export interface RankedTool {
  readonly name: string;
  readonly score: number;
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
  readonly key: string;
  readonly summary: string;
  readonly terms: ReadonlySet<string>;
  readonly nameKeys: readonly string[];
}

type IndexedDocument = { readonly id: string } & Readonly<Record<SearchField, string>>;

const NAME_TIER_EXACT = 2;
const NAME_TIER_PREFIX = 1;
const MIN_NAME_PREFIX = 3;

/**
 * A search index over a tool catalogue. Build it once and `sync` it whenever the catalogue
 * changes: only tools whose content changed are re-indexed.
 */
export class ToolIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly termCounts = new Map<string, number>();
  private readonly exactNames = new Map<string, Set<string>>();
  private sortedNameKeys: (readonly [string, string])[] | undefined;
  private readonly search_: MiniSearch<IndexedDocument>;

  constructor(
    tools: readonly ToolDefinition[] = [],
    private readonly options: RankingOptions = DEFAULT_RANKING,
  ) {
    this.search_ = new MiniSearch<IndexedDocument>({
      fields: [...SEARCH_FIELDS],
      storeFields: [],
      tokenize: splitOnSpace,
      processTerm: (term) => term,
      // Discarded documents are cleaned lazily as searches meet them; a background vacuum
      // would schedule timers this pure layer has no owner for.
      autoVacuum: false,
    });
    this.sync(tools);
  }

  get size(): number {
    return this.entries.size;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  tool(name: string): ToolDefinition | undefined {
    return this.entries.get(name)?.tool;
  }

  summary(name: string): string | undefined {
    return this.entries.get(name)?.summary;
  }

  names(): IterableIterator<string> {
    return this.entries.keys();
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
      } else if (contentKey(next) !== entry.key) {
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
    const limit = request.limit ?? Number.POSITIVE_INFINITY;
    const filter = request.filter ?? (() => true);
    const scores = this.scoreTerms(queryTerms(query, this.options), filter);
    const tiers = this.options.nameTiers ? this.nameTiers(query, filter) : new Map<string, number>();
    for (const name of tiers.keys()) if (!scores.has(name)) scores.set(name, 0);
    const ranked = [...scores].map(([name, score]) => ({ name, score, tier: tiers.get(name) ?? 0 }));
    ranked.sort((a, b) => b.tier - a.tier || b.score - a.score || compareStrings(a.name, b.name));
    return { results: ranked.slice(0, limit).map(({ name, score }) => ({ name, score })), total: ranked.length };
  }

  private add(tool: ToolDefinition): void {
    const summary = summarize(tool.description);
    const doc = documentOf(tool, summary, this.options);
    const terms = new Set<string>();
    for (const field of SEARCH_FIELDS) for (const t of splitOnSpace(doc[field])) terms.add(t);
    for (const t of terms) this.termCounts.set(t, (this.termCounts.get(t) ?? 0) + 1);
    const nameKeys = [...new Set([compact(tool.name), compact(tool.toolName)])].filter((k) => k.length > 0);
    for (const key of nameKeys) {
      const set = this.exactNames.get(key) ?? new Set<string>();
      set.add(tool.name);
      this.exactNames.set(key, set);
    }
    this.search_.add(doc);
    this.entries.set(tool.name, { tool, key: contentKey(tool), summary, terms, nameKeys });
    this.sortedNameKeys = undefined;
  }

  private remove(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    for (const t of entry.terms) {
      const n = (this.termCounts.get(t) ?? 1) - 1;
      if (n <= 0) this.termCounts.delete(t);
      else this.termCounts.set(t, n);
    }
    for (const key of entry.nameKeys) {
      const set = this.exactNames.get(key);
      set?.delete(name);
      if (set?.size === 0) this.exactNames.delete(key);
    }
    this.search_.discard(name);
    this.entries.delete(name);
    this.sortedNameKeys = undefined;
  }

  private scoreTerms(terms: readonly WeightedTerm[], filter: (name: string) => boolean): Map<string, number> {
    const scores = new Map<string, number>();
    if (terms.length === 0 || this.entries.size === 0) return scores;
    const weights = new Map(terms.map((t) => [t.term, t.weight]));
    const { prefixMinLength, fuzzy } = this.options;
    const raw = this.search_.search(terms.map((t) => t.term).join(' '), {
      tokenize: splitOnSpace,
      processTerm: (term) => term,
      boost: { ...this.options.boosts },
      bm25: { ...this.options.bm25 },
      boostTerm: (term) => weights.get(term) ?? 1,
      prefix: (term) => prefixMinLength > 0 && term.length >= prefixMinLength,
      // Fuzzy matching is for misspellings; a term the index already holds is spelt right,
      // and skipping it keeps large catalogues fast.
      fuzzy: (term) => (fuzzy > 0 && term.length >= 4 && !this.termCounts.has(term) ? fuzzy : false),
      maxFuzzy: 2,
      boostDocument: (id) => (filter(String(id)) ? 1 : 0),
    });
    for (const r of raw) {
      // MiniSearch multiplies by the number of query terms matched; weigh that count by how
      // much each term counts, so a synonym match does not count as much as the real word.
      const coverage = r.queryTerms.reduce((sum, t) => sum + (weights.get(t) ?? 1), 0);
      scores.set(String(r.id), (r.score / Math.max(1, r.queryTerms.length)) * coverage);
    }
    return scores;
  }

  private nameTiers(query: string, filter: (name: string) => boolean): Map<string, number> {
    const tiers = new Map<string, number>();
    const key = compact(query.slice(0, MAX_QUERY_CHARS));
    if (key.length < MIN_NAME_PREFIX) return tiers;
    for (const [k, name] of this.prefixMatches(key)) {
      if (filter(name)) tiers.set(name, Math.max(tiers.get(name) ?? 0, k === key ? NAME_TIER_EXACT : NAME_TIER_PREFIX));
    }
    return tiers;
  }

  private prefixMatches(key: string): (readonly [string, string])[] {
    this.sortedNameKeys ??= [...this.exactNames].flatMap(([k, names]) => [...names].map((n) => [k, n] as const)).sort((a, b) => compareStrings(a[0], b[0]));
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

function splitOnSpace(text: string): string[] {
  return text.split(' ').filter((t) => t.length > 0);
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function contentKey(tool: ToolDefinition): string {
  return JSON.stringify([tool.server, tool.toolName, tool.title, tool.description, tool.inputSchema]);
}

function termText(text: string | undefined, options: AnalyzeOptions): string {
  return text === undefined ? '' : analyze(text, options).join(' ');
}

function documentOf(tool: ToolDefinition, summary: string, options: AnalyzeOptions): IndexedDocument {
  const params = parametersOf(tool.inputSchema);
  const nameText = [tool.toolName, compact(tool.toolName), tool.title ?? tool.annotations?.title ?? ''].join(' ');
  return {
    id: tool.name,
    name: termText(nameText, options),
    server: termText(tool.server, options),
    params: params.map((p) => termText(p.name, options)).join(' '),
    summary: termText(summary, options),
    description: termText(tool.description, options),
    paramDocs: params.map((p) => [termText(p.description, options), ...p.enumValues.map((v) => termText(v, options))].join(' ')).join(' '),
  };
}
