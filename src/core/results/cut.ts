/** One way a view shows part of a result's text, within a character allowance. */
export interface Cut {
  /** What the view holds of the text, with a marker where it leaves some out. */
  readonly body: string;
  /** Characters of the result the body shows (markers left out). */
  readonly shownChars: number;
  /** Which part, in words, e.g. "lines 1–180 and 9,951–10,000 of 10,000". */
  readonly shown: string;
  /** How the model reads on: the read_result arguments that suit this result. */
  readonly readOn: string;
}

/** Of a result too long to show whole, the head takes this share of the allowance and the tail the rest. */
export const HEAD_SHARE = 0.75;

export const n = (value: number): string => value.toLocaleString('en-US');

/** `a–b`, or `a` alone when the range is one item. */
export function span(from: number, to: number): string {
  return from === to ? n(from) : `${n(from)}–${n(to)}`;
}

/** A JSON key as a view names it: a long one is clipped, so the header's room can be known before the cut. */
export const KEY_SHOWN_MAX = 40;
export function shownKey(key: string): string {
  return key.length <= KEY_SHOWN_MAX ? key : `${key.slice(0, KEY_SHOWN_MAX)}…`;
}

/** `1 image`, `3 images`. */
export function counted(count: number, noun: string): string {
  return `${n(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** The read_result arguments a view suggests: by line for text of many lines, by character for one long line, by line of the tool's own text for JSON. */
export const READINGS = {
  lines: (ref: string): string =>
    `{"ref": "${ref}", "grep": "<text>"} to list the lines that contain a text (an id, a name, an error message), with their numbers, or {"ref": "${ref}", "offset": <line>, "length": <lines>} to read lines from there`,
  characters: (ref: string): string =>
    `{"ref": "${ref}", "grep": "<text>"} to see where a text occurs, or {"ref": "${ref}", "unit": "characters", "offset": <character>, "length": <characters>} to read characters from there`,
  json: (ref: string): string =>
    `{"ref": "${ref}", "grep": "<text>"} to list the lines of the result as the tool wrote it that contain a text (an id, a name), with their numbers, or {"ref": "${ref}", "offset": <line>, "length": <lines>} to read those lines`,
} as const;
