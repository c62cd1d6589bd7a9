/**
 * A hash table from a span of a string (`text[start, end)`) to a value, looked up without
 * slicing the span out: the tokenizer meets about a million words per 10,000 tools, and
 * allocating and hashing a string for each one was most of the index build time.
 */
export class WordTable<V> {
  private keys: (string | undefined)[];
  private values: (V | undefined)[];
  private hashes: Int32Array;
  private count = 0;

  constructor(
    private readonly maxEntries: number,
    capacity = 1024,
  ) {
    this.keys = new Array<string | undefined>(capacity);
    this.values = new Array<V | undefined>(capacity);
    this.hashes = new Int32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** The value stored for `text[start, end)`, computing and storing it on first sight. */
  get(text: string, start: number, end: number, hash: number, compute: (word: string) => V): V {
    const mask = this.keys.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const key = this.keys[i];
      if (key === undefined) break;
      if (this.hashes[i] === hash && sameSpan(key, text, start, end)) return this.values[i] as V;
    }
    if (end - start > MAX_KEY_LENGTH) return compute(text.slice(start, end));
    const word = ownCopy(text, start, end);
    const value = compute(word);
    if (this.count >= this.maxEntries) this.clear();
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    this.insert(word, hash, value);
    return value;
  }

  clear(): void {
    this.keys.fill(undefined);
    this.values.fill(undefined);
    this.count = 0;
  }

  private insert(word: string, hash: number, value: V): void {
    const mask = this.keys.length - 1;
    let i = hash & mask;
    while (this.keys[i] !== undefined) i = (i + 1) & mask;
    this.keys[i] = word;
    this.values[i] = value;
    this.hashes[i] = hash;
    this.count++;
  }

  private grow(): void {
    const { keys, values, hashes } = this;
    this.keys = new Array<string | undefined>(keys.length * 2);
    this.values = new Array<V | undefined>(keys.length * 2);
    this.hashes = new Int32Array(keys.length * 2);
    this.count = 0;
    keys.forEach((key, i) => {
      if (key !== undefined) this.insert(key, hashes[i] ?? 0, values[i] as V);
    });
  }
}

// Longer "words" are identifiers, hashes or blobs: worth neither a table slot nor the copy.
const MAX_KEY_LENGTH = 64;

// V8 returns slices of 13+ characters as views that keep the whole source text alive; a key
// outlives the tool description it came from, so it is rebuilt from its characters.
function ownCopy(text: string, start: number, end: number): string {
  if (end - start < 13) return text.slice(start, end);
  const codes: number[] = [];
  for (let i = start; i < end; i++) codes.push(text.charCodeAt(i));
  return String.fromCharCode(...codes);
}

function sameSpan(key: string, text: string, start: number, end: number): boolean {
  if (key.length !== end - start) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/** FNV-1a step over one UTF-16 code unit; start from HASH_SEED. */
export const HASH_SEED = 0x811c9dc5 | 0;

export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}
