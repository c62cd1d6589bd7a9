import { MAX_QUERY_CHARS, MAX_QUERY_TERMS, normalizeWord, splitWords, type AnalyzeOptions } from './tokenize';

/** One term to look up, with how much a match on it counts (1 for the query's own words). */
export interface WeightedTerm {
  readonly term: string;
  readonly weight: number;
}

export interface QueryOptions extends AnalyzeOptions {
  /** Synonym groups to expand the query with; empty to turn expansion off. */
  readonly vocabulary: readonly (readonly string[])[];
  /** Weight of a term that came from a synonym rather than from the query itself. */
  readonly synonymWeight: number;
  /** One-way request phrase → tool words (see REQUEST_VERBS); empty to turn off. */
  readonly verbs: readonly (readonly [string, readonly string[]])[];
  /** Weight of a term that came from the request-verb map. */
  readonly verbWeight: number;
}

type PhraseTable = Map<string, readonly (readonly string[])[]>;

const tables = new WeakMap<readonly (readonly string[])[], { table: PhraseTable; longest: number }>();

// Phrase → the words of every other member of its group. Phrases are split with the same
// splitter as queries so `e-mail` or `k8s` match however the query spells them.
function phraseTable(vocabulary: readonly (readonly string[])[]): { table: PhraseTable; longest: number } {
  const cached = tables.get(vocabulary);
  if (cached) return cached;
  const table: PhraseTable = new Map();
  let longest = 1;
  for (const group of vocabulary) {
    const split = group.map((phrase) => splitWords(phrase));
    split.forEach((words, i) => {
      longest = Math.max(longest, words.length);
      const others = split.filter((_, j) => j !== i);
      table.set(words.join(' '), [...(table.get(words.join(' ')) ?? []), ...others]);
    });
  }
  const built = { table, longest };
  tables.set(vocabulary, built);
  return built;
}

const verbTables = new WeakMap<readonly (readonly [string, readonly string[]])[], { table: PhraseTable; longest: number }>();

function verbTable(verbs: readonly (readonly [string, readonly string[]])[]): { table: PhraseTable; longest: number } {
  const cached = verbTables.get(verbs);
  if (cached) return cached;
  const table: PhraseTable = new Map();
  let longest = 1;
  for (const [phrase, targets] of verbs) {
    const words = splitWords(phrase);
    longest = Math.max(longest, words.length);
    table.set(words.join(' '), targets.map((t) => splitWords(t)));
  }
  const built = { table, longest };
  verbTables.set(verbs, built);
  return built;
}

function phrasesOf(words: readonly string[], { table, longest }: { table: PhraseTable; longest: number }): string[][] {
  const found: string[][] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(longest, words.length - i); n >= 1; n--) {
      const others = table.get(words.slice(i, i + n).join(' '));
      if (others) found.push(...others.map((o) => [...o]));
    }
  }
  return found;
}

function synonymsOf(words: readonly string[], vocabulary: readonly (readonly string[])[]): string[][] {
  return phrasesOf(words, phraseTable(vocabulary));
}

/**
 * The weighted terms to search for. Work is bounded: the text is cut to MAX_QUERY_CHARS and
 * the result to MAX_QUERY_TERMS, the query's own words taking precedence over synonyms.
 */
export function queryTerms(query: string, options: QueryOptions): WeightedTerm[] {
  const words = splitWords(query.slice(0, MAX_QUERY_CHARS));
  const weights = new Map<string, number>();
  for (const word of words) {
    const term = normalizeWord(word, options);
    if (term !== undefined && weights.size < MAX_QUERY_TERMS) weights.set(term, 1);
  }
  for (const synonym of synonymsOf(words, options.vocabulary)) {
    for (const word of synonym) {
      const term = normalizeWord(word, options);
      if (term === undefined || weights.has(term) || weights.size >= MAX_QUERY_TERMS) continue;
      weights.set(term, options.synonymWeight);
    }
  }
  if (options.verbs.length > 0) {
    for (const target of phrasesOf(words, verbTable(options.verbs))) {
      for (const word of target) {
        const term = normalizeWord(word, options);
        if (term === undefined || weights.has(term) || weights.size >= MAX_QUERY_TERMS) continue;
        weights.set(term, options.verbWeight);
      }
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}
