import { isResultRef } from './resultRefs';
import { GREP_CONTEXT_DEFAULT, GREP_CONTEXT_MAX, GREP_MAX_CHARS } from './readResultTool';

export interface ReadRequest {
  readonly ref: string;
  readonly grep: string | undefined;
  /** 1-based: the first line (or character) read or searched. */
  readonly offset: number;
  readonly length: number | undefined;
  readonly unit: 'lines' | 'characters';
  readonly context: number;
}

export type ParsedRead = { readonly ok: true; readonly value: ReadRequest } | { readonly ok: false; readonly message: string };

const KEYS = ['ref', 'grep', 'offset', 'length', 'unit', 'context'];

const wholeNumber = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min;

/** read_result's input, checked strictly: every problem is an error saying what to send instead. */
export function parseReadRequest(input: Readonly<Record<string, unknown>>): ParsedRead {
  const fail = (message: string): ParsedRead => ({ ok: false, message: `read_result: ${message}` });
  const unknownKeys = Object.keys(input).filter((k) => !KEYS.includes(k));
  if (unknownKeys.length > 0) return fail(`unknown argument${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.map((k) => JSON.stringify(k)).join(', ')}. It takes ${KEYS.map((k) => JSON.stringify(k)).join(', ')}.`);
  const { ref, grep, offset, length, unit, context } = input;
  if (typeof ref !== 'string' || !isResultRef(ref)) return fail(`"ref" must be the reference a shortened result opens with, such as "r3" (got ${JSON.stringify(ref) ?? 'nothing'}).`);
  if (grep !== undefined && (typeof grep !== 'string' || grep === '' || grep.length > GREP_MAX_CHARS)) return fail(`"grep" must be a text of 1 to ${GREP_MAX_CHARS} characters to look for.`);
  if (offset !== undefined && !wholeNumber(offset, 1)) return fail('"offset" must be a whole number, 1 or more (1 is the first line or character).');
  if (length !== undefined && !wholeNumber(length, 1)) return fail('"length" must be a whole number, 1 or more.');
  if (unit !== undefined && unit !== 'lines' && unit !== 'characters') return fail('"unit" must be "lines" or "characters".');
  if (context !== undefined && !(wholeNumber(context, 0) && context <= GREP_CONTEXT_MAX)) return fail(`"context" must be a whole number from 0 to ${GREP_CONTEXT_MAX}.`);
  if (grep !== undefined && unit === 'characters') return fail('"grep" finds lines, so it goes with "unit": "lines" (or none).');
  return {
    ok: true,
    value: { ref, grep, offset: offset ?? 1, length, unit: unit ?? 'lines', context: context ?? GREP_CONTEXT_DEFAULT },
  };
}
