import { hashStep, HASH_SEED, WordTable } from './wordTable';

/**
 * Turns tool names, descriptions and queries into index terms. The same pipeline runs on
 * both sides, so a query word and a document word meet only when they normalize alike.
 */

/** Words that carry no signal for choosing a tool. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'about', 'after', 'all', 'also', 'am', 'an', 'and', 'any', 'are', 'as', 'at', 'be', 'been',
  'before', 'being', 'both', 'but', 'by', 'can', 'could', 'did', 'do', 'does', 'doing', 'each',
  'either', 'else', 'etc', 'for', 'from', 'further', 'had', 'has', 'have', 'having', 'he', 'her',
  'here', 'hers', 'him', 'his', 'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just',
  'let', 'may', 'me', 'might', 'more', 'most', 'must', 'my', 'myself', 'no', 'nor', 'not', 'of',
  'on', 'once', 'only', 'or', 'other', 'our', 'ours', 'out', 'own', 'please', 'same', 'shall',
  'she', 'should', 'so', 'some', 'such', 'than', 'that', 'the', 'their', 'theirs', 'them', 'then',
  'there', 'these', 'they', 'this', 'those', 'through', 'to', 'too', 'us', 'very', 'via', 'was',
  'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'why', 'will', 'with',
  'would', 'you', 'your', 'yours', 'yourself', 'i\'m', 'it\'s', 'don\'t', 'want', 'need', 'like',
  'give', 'tell', 'e', 'g', 'eg', 'ie',
]);

/** Bounds the work one query can cause, however long the text the model sends. */
export const MAX_QUERY_CHARS = 1_000;
export const MAX_QUERY_TERMS = 32;

const WORD = /[\p{L}\p{N}']+/gu;
// Most words are already plain lowercase: skip the costly boundary split for them.
const PLAIN = /^[a-z]+$/;
// Boundaries inside a word: fooBar, HTTPServer, v2beta.
const CAMEL = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/**
 * Splits text into lowercase words: on anything not a letter or digit, then camelCase and
 * digit runs. A word that splits also yields its whole self first (`colorScheme` →
 * `colorscheme color scheme`, `k8s` → `k8s k 8 s`), so both spellings meet.
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    if (PLAIN.test(match[0])) {
      out.push(match[0]);
      continue;
    }
    const whole = match[0].replace(/^'+|'+$/g, '');
    const parts = whole.split(CAMEL);
    if (parts.length > 1) out.push(whole.toLowerCase());
    for (const part of parts) {
      const word = part.replace(/^'+|'+$/g, '').toLowerCase();
      if (word.length > 0) out.push(word);
    }
  }
  return out;
}

/** Lowercase letters and digits only: `create_or_update-File` → `createorupdatefile`. */
export function compact(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * A light English suffix stripper (plural, -ing, -ed, -ies). It only has to make a query
 * word and a document word agree, never produce a real word, and it must never merge
 * unrelated short words, so anything under four letters is left alone.
 */
export function stem(word: string): string {
  // English rules only: words with digits or non-ASCII letters are left as written.
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('xes') || w.endsWith('ches') || w.endsWith('shes')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5 && hasVowel(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4 && !w.endsWith('eed') && hasVowel(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  if (w.endsWith('y') && w.length > 4) w = `${w.slice(0, -1)}i`;
  return w;
}

function hasVowel(w: string): boolean {
  return /[aeiouy]/.test(w);
}

function undouble(w: string): string {
  const n = w.length;
  if (n > 3 && w[n - 1] === w[n - 2] && !'lsz'.includes(w[n - 1] ?? '')) return w.slice(0, -1);
  return w;
}

export interface AnalyzeOptions {
  readonly stopWords: boolean;
  readonly stem: boolean;
  /** Drop terms made only of digits (`10`, `2020`, `203`): in queries they are values, not tool words. */
  readonly dropNumbers: boolean;
}

export const DEFAULT_ANALYZE: AnalyzeOptions = { stopWords: true, stem: true, dropNumbers: true };

// Catalogues repeat a small vocabulary many times over; normalizing each distinct word once
// keeps index builds fast. Bounded, and keyed by options since they change the answer.
const MAX_CACHED_WORDS = 100_000;
const caches: Map<string, string | null>[] = [];

function cacheFor(options: AnalyzeOptions): Map<string, string | null> {
  const key = (options.dropNumbers ? 4 : 0) + (options.stopWords ? 2 : 0) + (options.stem ? 1 : 0);
  let cache = caches[key] ?? new Map<string, string | null>();
  if (cache.size >= MAX_CACHED_WORDS) cache = new Map();
  caches[key] = cache;
  return cache;
}

/** Normalizes one already-split word into an index term, or undefined when it is dropped. */
export function normalizeWord(word: string, options: AnalyzeOptions = DEFAULT_ANALYZE): string | undefined {
  const cache = cacheFor(options);
  const cached = cache.get(word);
  if (cached !== undefined) return cached ?? undefined;
  const term = computeTerm(word, options);
  cache.set(word, term ?? null);
  return term;
}

function computeTerm(word: string, options: AnalyzeOptions): string | undefined {
  // Single characters are the leftovers of splitting (`k8s`, `e-mail`), not words.
  if (word.length < 2) return undefined;
  if (options.stopWords && STOP_WORDS.has(word)) return undefined;
  if (options.dropNumbers && /^[0-9]+$/.test(word)) return undefined;
  const term = options.stem ? stem(word) : word;
  return term.length > 0 ? term : undefined;
}

/** Text → index terms, in order, duplicates kept (term frequency matters to BM25). */
export function analyze(text: string, options: AnalyzeOptions = DEFAULT_ANALYZE): string[] {
  return analyzeInto(text, options, []);
}

/** `analyze`, appending to `out` (returned) so one tool's fields can share an array. */
export function analyzeInto(text: string, options: AnalyzeOptions, out: string[]): string[] {
  const { table, compute } = tableFor(options);
  // A hand-rolled scan hashing as it goes: each word is looked up by its span, so only
  // distinct spellings are ever sliced out, split and normalized.
  let start = -1;
  let hash = HASH_SEED;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c < 128 ? ASCII_WORD[c] === 1 : isWordChar(c)) {
      if (start < 0) {
        start = i;
        hash = HASH_SEED;
      }
      hash = hashStep(hash, c);
      continue;
    }
    if (start < 0) continue;
    const terms = table.get(text, start, i, hash, compute);
    start = -1;
    if (typeof terms === 'string') out.push(terms);
    else for (const t of terms) out.push(t);
  }
  return out;
}

type RawTerms = string | readonly string[];

interface RawTable {
  readonly table: WordTable<RawTerms>;
  readonly compute: (raw: string) => RawTerms;
}

const tables: RawTable[] = [];

function tableFor(options: AnalyzeOptions): RawTable {
  const key = (options.dropNumbers ? 4 : 0) + (options.stopWords ? 2 : 0) + (options.stem ? 1 : 0);
  let entry = tables[key];
  if (entry === undefined) {
    const compute = (raw: string): RawTerms => {
      const terms = termsOfRaw(raw, options);
      // Most words give exactly one term: keep it unwrapped, one memory load fewer per word.
      return terms.length === 1 ? (terms[0] ?? '') : terms;
    };
    entry = { table: new WordTable<RawTerms>(MAX_CACHED_WORDS), compute };
    tables[key] = entry;
  }
  return entry;
}

function termsOfRaw(raw: string, options: AnalyzeOptions): readonly string[] {
  const out: string[] = [];
  for (const word of splitWords(raw)) {
    const term = normalizeWord(word, options);
    if (term !== undefined) out.push(term);
  }
  return out;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const nonAsciiWordChar = new Map<number, boolean>();
const ASCII_WORD = new Uint8Array(128).map((_, c) => (isWordChar(c) ? 1 : 0));

// Same character class as WORD: ASCII by table, anything else by one cached regex test
// (surrogate halves are tested as a pair by their high half).
function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 39;
  let known = nonAsciiWordChar.get(c);
  if (known === undefined) {
    known = c >= 0xd800 && c <= 0xdfff ? true : LETTER_OR_DIGIT.test(String.fromCharCode(c));
    if (nonAsciiWordChar.size < MAX_CACHED_WORDS) nonAsciiWordChar.set(c, known);
  }
  return known;
}
