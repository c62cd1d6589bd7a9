/**
 * A small BM25F inverted index with incremental add and remove.
 *
 * Why not MiniSearch (the team guide's default for ranking): re-measured 2026-11-30 on the
 * bench machine (2 shared cores, load average 3–6). MiniSearch 7.2.0 given everything it can
 * take from us (our tokenizer as `tokenize`, identity `processTerm`, the same six precomputed
 * fields and boosts, our query expansion with synonym weights through `boostTerm`, prefix
 * from 4 letters, no fuzzy, BM25 k 1.2 b 0.7) built 10,000 tools in 1.5–1.6 s with search
 * p99 23–26 ms (p50 about 3 ms); without prefix search 1.1–1.8 s and p99 18–26 ms. This
 * index, same machine, same minutes: build 0.47–0.6 s (median of repeated runs about 0.5 s),
 * p99 1.6–4 ms. Targets: 500 ms and 5 ms. Quality was close (dev hit@5 0.843 against our
 * 0.853 then) but MiniSearch has no place for our name tiers or coverage factor. So we keep
 * this index: each posting carries its per-field term frequencies, and a query is one pass
 * over the postings of its few terms.
 */

/** Term frequencies of one document, field by field (index = field number). */
export type FieldTerms = readonly (readonly string[])[];

export interface Bm25Params {
  readonly k: number;
  readonly b: number;
}

/** One query term: its index term, what a match adds, and which query word it stands for. */
export interface TermLookup {
  readonly term: string;
  readonly weight: number;
  readonly source: number;
}

interface Posting {
  readonly term: string;
  /**
   * Pairs (slot, packed field frequencies; see FIELD_RADIX) in one flat array of doubles.
   * A plain array grows in place: typed arrays doubled by hand cost a fresh zeroed buffer per
   * growth, and the plain array built 10,000 tools about 8% faster (bench, 2026-11-30).
   */
  entries: number[];
  live: number;
  /** Cached field-normalized frequency per slot, valid while `version` is the index's. */
  norm: Float64Array | undefined;
  version: number;
}

interface Doc {
  readonly id: string;
  readonly lengths: readonly number[];
  readonly postings: readonly Posting[];
  /** Caller's grouping of documents (Quiver: the server), or -1. */
  readonly group: number;
  alive: boolean;
}

export interface SlotScores {
  /** Slots of the documents that matched, in no particular order. */
  readonly slots: readonly number[];
  /** BM25F sum over matched terms, by slot. */
  readonly scores: Float64Array;
  /** Sum of the weights of the distinct query words matched, by slot. */
  readonly coverage: Float64Array;
}

interface Scratch {
  readonly scores: Float64Array;
  readonly coverage: Float64Array;
  readonly seenSource: Int32Array;
  /** 0 unknown, 1 accepted, 2 rejected. */
  readonly verdict: Int8Array;
  /** Every slot given a verdict, so the next query resets only those. */
  readonly seen: number[];
}

const COMPACT_MIN_DEAD = 256;
// Frequencies are capped at 255 and packed into one double (up to 6 fields fit in 53 bits),
// a fraction of the memory of one number per field per posting.
const FIELD_RADIX = 256;
const MAX_FIELDS = 6;

export class InvertedIndex {
  private readonly postings = new Map<string, Posting>();
  private docs: Doc[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly totalLengths: number[];
  private dead = 0;
  private version = 0;
  private sortedTerms: string[] | undefined;
  private termsByInitial: Map<string, string[]> | undefined;

  constructor(
    private readonly boosts: readonly number[],
    private readonly bm25: Bm25Params,
  ) {
    if (boosts.length > MAX_FIELDS) throw new Error(`at most ${MAX_FIELDS} fields`);
    this.totalLengths = boosts.map(() => 0);
  }

  get size(): number {
    return this.slotOf.size;
  }

  hasTerm(term: string): boolean {
    return this.postings.has(term);
  }

  add(id: string, fields: FieldTerms, group = -1): void {
    if (this.slotOf.has(id)) this.remove(id);
    const slot = this.docs.length;
    const postings: Posting[] = [];
    let unit = 1;
    for (const terms of fields) {
      // Fields are packed in order, so while field f is counted every higher field is still
      // zero and "below 255 in field f" is just `packed < 255 * unit`: saturate, never carry.
      const full = (FIELD_RADIX - 1) * unit;
      for (const term of terms) {
        let p = this.postings.get(term);
        if (p === undefined) {
          p = { term, entries: [], live: 0, norm: undefined, version: -1 };
          this.postings.set(term, p);
          this.sortedTerms = undefined;
          this.termsByInitial = undefined;
        }
        const last = p.entries.length - 2;
        if (last < 0 || p.entries[last] !== slot) {
          p.entries.push(slot, unit);
          p.live++;
          postings.push(p);
        } else {
          const packed = p.entries[last + 1] ?? 0;
          if (packed < full) p.entries[last + 1] = packed + unit;
        }
      }
      unit *= FIELD_RADIX;
    }
    const lengths = this.boosts.map((_, f) => fields[f]?.length ?? 0);
    lengths.forEach((n, f) => (this.totalLengths[f] = (this.totalLengths[f] ?? 0) + n));
    this.docs.push({ id, lengths, postings, group, alive: true });
    this.slotOf.set(id, slot);
    this.version++;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    const doc = slot === undefined ? undefined : this.docs[slot];
    if (slot === undefined || doc === undefined) return;
    doc.alive = false;
    this.slotOf.delete(id);
    doc.lengths.forEach((n, f) => (this.totalLengths[f] = (this.totalLengths[f] ?? 0) - n));
    for (const p of doc.postings) {
      p.live--;
      if (p.live === 0) {
        this.postings.delete(p.term);
        this.sortedTerms = undefined;
        this.termsByInitial = undefined;
      }
    }
    this.dead++;
    this.version++;
    // Postings keep dead slots until enough pile up; a search skips them meanwhile.
    if (this.dead >= COMPACT_MIN_DEAD && this.dead * 4 >= this.docs.length) this.compact();
  }

  /** Index terms that start with `prefix` (excluding `prefix` itself), at most `max`. */
  termsWithPrefix(prefix: string, max: number): string[] {
    const sorted = (this.sortedTerms ??= [...this.postings.keys()].sort());
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] ?? '') < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && out.length < max; i++) {
      const t = sorted[i] ?? '';
      if (!t.startsWith(prefix)) break;
      if (t !== prefix) out.push(t);
    }
    return out;
  }

  /**
   * Index terms sharing `term`'s first letter whose length is within `maxLengthDiff` of it:
   * the only candidates for a misspelling of `term` within that many edits (the first letter
   * is assumed right). Bucketed by letter and length so a 10,000-tool vocabulary is not
   * scanned whole for each unknown query word.
   */
  termsNear(term: string, maxLengthDiff: number): string[][] {
    if (this.termsByInitial === undefined) {
      this.termsByInitial = new Map();
      for (const t of this.postings.keys()) {
        const key = `${t.charAt(0)}${t.length}`;
        const list = this.termsByInitial.get(key);
        if (list) list.push(t);
        else this.termsByInitial.set(key, [t]);
      }
    }
    const out: string[][] = [];
    for (let n = term.length - maxLengthDiff; n <= term.length + maxLengthDiff; n++) {
      const list = this.termsByInitial.get(`${term.charAt(0)}${n}`);
      if (list) out.push(list);
    }
    return out;
  }

  /**
   * Groups (see `add`) holding a live document with `term` in field number `field`: one
   * pass over the term's postings.
   */
  groupsWithTerm(term: string, field: number): Set<number> {
    const out = new Set<number>();
    const p = this.postings.get(term);
    if (p === undefined) return out;
    const unit = FIELD_RADIX ** field;
    for (let i = 0, pairs = p.entries.length / 2; i < pairs; i++) {
      if (Math.floor((p.entries[2 * i + 1] ?? 0) / unit) % FIELD_RADIX === 0) continue;
      const doc = this.docs[p.entries[2 * i] ?? 0];
      if (doc !== undefined && doc.alive && doc.group >= 0) out.add(doc.group);
    }
    return out;
  }

  groupAt(slot: number): number {
    return this.docs[slot]?.group ?? -1;
  }

  /** The document id in `slot` (as returned by `score`). */
  idAt(slot: number): string {
    return this.docs[slot]?.id ?? '';
  }

  slotOfId(id: string): number | undefined {
    return this.slotOf.get(id);
  }

  /**
   * Scores every live document that `accept`s and matches at least one lookup. Results are
   * by slot, in arrays sized to the index, so a broad query allocates no per-document objects.
   * The arrays are reused: they hold this call's results until the next call.
   */
  score(lookups: readonly TermLookup[], sourceWeights: readonly number[], accept: (id: string) => boolean): SlotScores {
    const { scores, coverage, seenSource, verdict, seen } = this.scratchFor(this.docs.length);
    const touched: number[] = [];
    const live = this.size;
    const { k } = this.bm25;
    // Lookups are grouped by source so "counted this query word for this doc" is one compare.
    const ordered = [...lookups].sort((a, b) => a.source - b.source);
    for (const lookup of ordered) {
      const p = this.postings.get(lookup.term);
      if (p === undefined) continue;
      const idf = Math.log(1 + (live - p.live + 0.5) / (p.live + 0.5));
      const norm = this.normalized(p);
      const factor = idf * lookup.weight * (k + 1);
      const sourceWeight = sourceWeights[lookup.source] ?? 1;
      const entries = p.entries;
      for (let i = 0, pairs = p.entries.length / 2; i < pairs; i++) {
        const slot = entries[2 * i] ?? 0;
        let v = verdict[slot] ?? 0;
        if (v === 0) {
          const doc = this.docs[slot];
          v = doc !== undefined && doc.alive && accept(doc.id) ? 1 : 2;
          verdict[slot] = v;
          seen.push(slot);
          if (v === 1) touched.push(slot);
        }
        if (v === 2) continue;
        const t = norm[i] ?? 0;
        scores[slot] = (scores[slot] ?? 0) + (factor * t) / (t + k);
        if (seenSource[slot] !== lookup.source) {
          seenSource[slot] = lookup.source;
          coverage[slot] = (coverage[slot] ?? 0) + sourceWeight;
        }
      }
    }
    return { slots: touched, scores, coverage };
  }

  // Per-query arrays sized to the index, reused: allocating four of them per query (200 KB
  // at 10,000 tools) made garbage collection a visible share of query time. Only the slots
  // the previous query touched are reset.
  private scratch: Scratch | undefined;

  private scratchFor(n: number): Scratch {
    let s = this.scratch;
    if (s === undefined || s.scores.length < n) {
      const size = Math.max(64, n * 2);
      s = { scores: new Float64Array(size), coverage: new Float64Array(size), seenSource: new Int32Array(size).fill(-1), verdict: new Int8Array(size), seen: [] };
      this.scratch = s;
      return s;
    }
    for (const slot of s.seen) {
      s.scores[slot] = 0;
      s.coverage[slot] = 0;
      s.seenSource[slot] = -1;
      s.verdict[slot] = 0;
    }
    s.seen.length = 0;
    return s;
  }

  // BM25F pseudo-frequency: each field's count, length-normalized and boosted, summed
  // before saturation, so a word repeated across fields is not counted as independent evidence.
  private normalized(p: Posting): Float64Array {
    if (p.norm !== undefined && p.version === this.version) return p.norm;
    const live = Math.max(1, this.size);
    const avg = this.totalLengths.map((t) => Math.max(1e-9, t / live));
    const norm = new Float64Array(p.entries.length / 2);
    for (let i = 0, pairs = p.entries.length / 2; i < pairs; i++) {
      const doc = this.docs[p.entries[2 * i] ?? 0];
      if (doc === undefined) continue;
      let sum = 0;
      let packed = p.entries[2 * i + 1] ?? 0;
      for (let f = 0; packed > 0; f++, packed = Math.floor(packed / FIELD_RADIX)) {
        const tf = packed % FIELD_RADIX;
        if (tf === 0) continue;
        const len = doc.lengths[f] ?? 0;
        sum += ((this.boosts[f] ?? 1) * tf) / (1 - this.bm25.b + (this.bm25.b * len) / (avg[f] ?? 1));
      }
      norm[i] = sum;
    }
    p.norm = norm;
    p.version = this.version;
    return norm;
  }

  private compact(): void {
    const remap = new Int32Array(this.docs.length).fill(-1);
    const docs: Doc[] = [];
    this.docs.forEach((doc, slot) => {
      if (!doc.alive) return;
      remap[slot] = docs.length;
      this.slotOf.set(doc.id, docs.length);
      docs.push(doc);
    });
    for (const p of this.postings.values()) {
      let n = 0;
      for (let i = 0, pairs = p.entries.length / 2; i < pairs; i++) {
        const to = remap[p.entries[2 * i] ?? 0] ?? -1;
        if (to < 0) continue;
        p.entries[2 * n] = to;
        p.entries[2 * n + 1] = p.entries[2 * i + 1] ?? 0;
        n++;
      }
      p.entries.length = 2 * n;
      p.norm = undefined;
    }
    this.docs = docs;
    this.dead = 0;
    this.version++;
  }
}

