import type { KeptResult, ShortenedStatus } from '../stream/events';
import { charsOfTokens, tokensOfChars } from '../overhead/tokens';
import type { ToolResultContent } from '../tools/toolSource';
import { counted, KEY_SHOWN_MAX, n, READINGS, type Cut } from './cut';
import { cutJsonArray } from './jsonCut';
import { cutLines } from './lineCut';
import { estimateResultTokens, IMAGE_TOKENS, imagesOf, resultText } from './resultText';

/** How much of one result the model reads at once (see resultLimitFor). */
export type ResultLimit = 'whole' | { readonly budgetTokens: number; readonly thresholdTokens: number };

export interface ResultView {
  /** What the model gets instead of the whole result. */
  readonly content: readonly ToolResultContent[];
  /** What the stream records of the result kept whole. */
  readonly kept: KeptResult;
}

interface ViewFacts {
  readonly ref: string;
  readonly tool: string;
  readonly status: ShortenedStatus;
  readonly totalChars: number;
  readonly shown: string;
  readonly images: string;
  readonly readOn: string;
}

/**
 * The line a view opens with: its completeness status, how large the whole is and which part
 * is shown, that the whole is kept and how to read on, and that what is not shown is not
 * absent (silent truncation turns a missing row into a row that does not exist).
 */
function header(f: ViewFacts): string {
  const failed = f.status === 'error' ? ' The call failed, and its error output is long.' : '';
  return `[Result ${f.ref} of ${f.tool}, status: ${f.status}.${failed} The whole result is ${n(f.totalChars)} characters (about ${n(tokensOfChars(f.totalChars))} tokens); shown here: ${f.shown}${f.images}. It is kept whole: call read_result with ${f.readOn}. What is not shown may hold what you need: do not take it as absent.]`;
}

/** The room a cut must leave: the longest header this result's view can have, and its gap marker, with every number at its widest. */
function headerRoom(tool: string, ref: string, totalChars: number, totalLines: number): number {
  const w = n(Math.max(totalChars, totalLines));
  const readOn = Object.values(READINGS).map((r) => r(ref)).reduce((a, b) => (a.length >= b.length ? a : b));
  const shown = [`line 1 (its first ${w} of ${w} characters) and lines ${w}–${w} of ${w}`, `elements ${w}–${w} and ${w}–${w} of the ${w} in "${'k'.repeat(2 * KEY_SHOWN_MAX)}"`].reduce((a, b) => (a.length >= b.length ? a : b));
  const longest = header({ ref, tool, status: 'error', totalChars, shown, images: `; of its ${w} images, the first ${w} are attached below`, readOn });
  return longest.length + `\n[… elements ${w}–${w} of ${w} not shown: ${w} elements, ${w} characters …]\n`.length;
}

function imagesNote(total: number, attached: number): string {
  if (total === 0) return '';
  if (attached === 0) return `; its ${counted(total, 'image')} ${total === 1 ? 'is' : 'are'} named, not attached`;
  return `; of its ${counted(total, 'image')}, the first ${n(attached)} ${attached === 1 ? 'is' : 'are'} attached below`;
}

/** JSON that is mostly one array (a result of one text block) is cut at element boundaries, other text at line boundaries. */
function cutOf(content: readonly ToolResultContent[], text: string, allowance: number, ref: string): Cut {
  return (content.length === 1 ? cutJsonArray(text, allowance, ref) : undefined) ?? cutLines(text, allowance, ref);
}

/** Whether a result goes to the model whole under `limit` (a threshold below the budget acts as the budget). */
export function fitsWhole(content: readonly ToolResultContent[], limit: Exclude<ResultLimit, 'whole'>): boolean {
  return estimateResultTokens(content) <= Math.max(limit.thresholdTokens, limit.budgetTokens);
}

/**
 * The view of a result too long to send whole, within `budgetTokens`: the header, the cut, and
 * the images that fit in half of the budget; and the record of what to keep whole as `ref`.
 */
export function shortenedView(content: readonly ToolResultContent[], isError: boolean, budgetTokens: number, tool: string, ref: string): ResultView {
  const text = resultText(content);
  const images = imagesOf(content);
  const attached = images.slice(0, Math.floor(budgetTokens / 2 / IMAGE_TOKENS));
  const allowance = charsOfTokens(budgetTokens - attached.length * IMAGE_TOKENS) - headerRoom(tool, ref, text.length, text.split('\n').length);
  const cut = allowance > 0 ? cutOf(content, text, allowance, ref) : undefined;
  const shownChars = cut?.shownChars ?? 0;
  const status: ShortenedStatus = isError ? 'error' : shownChars === 0 ? 'reference-only' : 'truncated';
  const opening = header({
    ref,
    tool,
    status,
    totalChars: text.length,
    shown: shownChars > 0 && cut !== undefined ? cut.shown : 'nothing (only this reference)',
    images: imagesNote(images.length, attached.length),
    readOn: cut?.readOn ?? (text.includes('\n') ? READINGS.lines(ref) : READINGS.characters(ref)),
  });
  const body = cut !== undefined && shownChars > 0 ? [{ type: 'text' as const, text: cut.body }] : [];
  return {
    content: [{ type: 'text', text: opening }, ...body, ...attached],
    kept: { ref, status, shownChars, totalChars: text.length },
  };
}

/**
 * A view whose whole could not be kept (the store failed): its header, which offers a reference,
 * gives way to a marker saying the rest is gone and how to get it, like a cut at the MCP layer.
 */
export function unkeptView(view: ResultView, why: string): ToolResultContent[] {
  const [, ...rest] = view.content;
  const { shownChars, totalChars } = view.kept;
  const marker = `[TRUNCATED: the result was ${n(totalChars)} characters and only ${n(shownChars)} are shown; the rest could not be kept (${why}) and is gone. Call the tool again with narrower arguments (a filter, a range or a smaller page) to see it.]`;
  return [...rest, { type: 'text', text: marker }];
}
