/** Longest summary shown in a search result or the server index. */
export const SUMMARY_MAX_CHARS = 160;

// A period ends a sentence only when followed by whitespace and not part of a common
// abbreviation, so "e.g. a file" and "v1.2" do not cut a summary short.
const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|approx|incl|no|eg|ie)|\.\.)$/i;

/**
 * One line describing a tool: the first sentence of its description with markdown
 * emphasis and whitespace runs flattened, cut at a word boundary to `maxChars`.
 */
export function summarize(description: string, maxChars = SUMMARY_MAX_CHARS): string {
  // Only the start can end up in the summary; descriptions run to tens of kilobytes, and
  // whitespace and markup shrink by well under this factor.
  const head = description.length > maxChars * 8 + 64 ? description.slice(0, maxChars * 8 + 64) : description;
  const firstBlock = head.trim().split(/\n\s*\n/, 1)[0] ?? '';
  const flat = firstBlock.replace(/[`*_#>]+/g, '').replace(/\s+/g, ' ').trim();
  return truncate(firstSentence(flat), maxChars);
}

function firstSentence(text: string): string {
  const ends = /[.!?](?=\s|$)/g;
  for (const match of text.matchAll(ends)) {
    const upTo = text.slice(0, match.index);
    if (!ABBREVIATIONS.test(upTo)) return text.slice(0, match.index + 1);
  }
  return text;
}

/** Cuts at a word boundary and marks the cut; never returns more than `maxChars` characters. */
export function truncate(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  if (maxChars <= 1) return text.slice(0, Math.max(0, maxChars));
  const room = text.slice(0, maxChars - 1);
  const space = room.lastIndexOf(' ');
  const cut = space > maxChars / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.-]+$/, '')}…`;
}
