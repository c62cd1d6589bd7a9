/**
 * The rule for text too long to send whole (tool results, attached files, problem lists): keep
 * the head, at most `max` characters, never splitting a surrogate pair, and say in a marker what
 * was left out, so that missing lines never read as lines that do not exist.
 */
export interface Cut {
  readonly text: string;
  /** null when the text fit; else how many characters were kept of how many. */
  readonly cut: { readonly keptChars: number; readonly totalChars: number } | null;
}

/** Cuts `text` to at most `max` characters, never splitting a surrogate pair. */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

export function cutText(text: string, max: number): Cut {
  if (text.length <= max) return { text, cut: null };
  const head = headOf(text, max);
  return { text: head, cut: { keptChars: head.length, totalChars: text.length } };
}

/** The line number (1-based) the last kept character is on. */
export function lastLineOf(head: string): number {
  let lines = 1;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 10) lines++;
  return lines;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
