import { estimateResultTokens } from '../results/resultText';
import { noteEnableSources } from '../stream/enableSources';
import type { DeltaSource, StreamEvent } from '../stream/events';
import { formatTokens, UNLOADED_IN_CONVERSATION } from './toolOverview';
import { tokensOfChars } from './tokens';
import { READ_RESULT_NAME } from '../tools/definitions';

/** One request of a conversation as its reply reported it: what the prompt cache read and wrote, and why it missed. */
export interface RequestUsage {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** Share of the prompt read from cache, 0–1. */
  readonly readShare: number;
  /** The tool changes appended just before this request (what changed what the model is offered). */
  readonly changes: readonly string[];
  readonly cacheMiss: string | undefined;
  /**
   * Estimated tokens of tool results: those first sent with this request, and all the request
   * carried (each result is paid again, mostly as cache reads, by every later request).
   */
  readonly results: { readonly added: number; readonly carried: number };
  /** What the API's context management did in this request, in words (compacted, cleared), with the tokens it saved. */
  readonly managed: readonly string[];
}

/** What the conversation's tool results cost, and what keeping the long ones whole saved. */
export interface ResultCosts {
  readonly count: number;
  /** Estimated tokens of every result as the model got it. */
  readonly sentTokens: number;
  /** Results the model got a view of; their whole is kept. */
  readonly kept: number;
  /** Estimated tokens of those views, and of the whole results they stand for. */
  readonly keptShownTokens: number;
  readonly keptWholeTokens: number;
  /** read_result calls. */
  readonly reads: number;
}

type ToolResult = Extract<StreamEvent, { type: 'tool_result' }>;

/**
 * `settings +a −b`. A tool this conversation turned on or off itself (a search card's Unload,
 * `/set tools.NAME.enable`), whose wire change is recorded under `settings` like a settings edit,
 * is told apart: `unloaded in this conversation −b`, `loaded in this conversation +a`.
 */
function describeChange(e: Extract<StreamEvent, { type: 'wire_change' }>, sources: ReadonlyMap<string, DeltaSource>): string {
  const byUser = (n: string): boolean => e.cause === 'settings' && sources.get(n) === 'user';
  const parts = [...e.added.filter((n) => !byUser(n)).map((n) => `+${n}`), ...e.removed.filter((n) => !byUser(n)).map((n) => `−${n}`)];
  const reloaded = e.added.filter(byUser).map((n) => `+${n}`);
  const unloaded = e.removed.filter(byUser).map((n) => `−${n}`);
  const phrases = [
    ...(parts.length > 0 || (reloaded.length === 0 && unloaded.length === 0) ? [`${e.cause}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}`] : []),
    ...(unloaded.length > 0 ? [`${UNLOADED_IN_CONVERSATION} ${unloaded.join(' ')}`] : []),
    ...(reloaded.length > 0 ? [`loaded in this conversation ${reloaded.join(' ')}`] : []),
  ];
  return phrases.join('; ');
}

/** A request that summarized the whole conversation on its own (`/compact`, or Quiver's own compaction). */
interface StandaloneCompaction {
  readonly request: number;
  readonly read: number;
  readonly summary: number;
}

/**
 * What the API's clearing and threshold compaction did in a request, with what they saved (the
 * prompt it read against what it would have). A compaction that was the whole request (on
 * demand) saved nothing in it: that request is returned as standalone, to be priced by the next.
 */
function managedOf(e: Extract<StreamEvent, { type: 'usage' }>, request: number): { notes: string[]; standalone: StandaloneCompaction | undefined } {
  const prompt = e.inputTokens + e.cacheReadTokens + e.cacheWriteTokens;
  const notes = e.cleared !== undefined ? [`cleared ${e.cleared.toolUses} old tool ${e.cleared.toolUses === 1 ? 'result' : 'results'} (${formatTokens(e.cleared.inputTokens)} tokens saved)`] : [];
  if (e.compacted === undefined) return { notes, standalone: undefined };
  const saved = e.compacted.inputTokens - prompt;
  if (saved <= 0) return { notes, standalone: { request, read: e.compacted.inputTokens, summary: e.compacted.outputTokens } };
  return { notes: [...notes, `${compactionText(e.compacted.inputTokens, e.compacted.outputTokens)} (${formatTokens(saved)} tokens saved)`], standalone: undefined };
}

const compactionText = (read: number, summary: number): string => `compacted the conversation: read ${formatTokens(read)} tokens, summarized in ${formatTokens(summary)}`;

/** A standalone compaction's note, once the request after it shows what the conversation costs now. */
function standaloneNote(c: StandaloneCompaction, nextPrompt: number | undefined): string {
  const after = nextPrompt === undefined ? '' : ` (${formatTokens(Math.max(0, c.read - nextPrompt))} tokens saved: the next request read ${formatTokens(nextPrompt)})`;
  return compactionText(c.read, c.summary) + after;
}

/**
 * Every answered request of the stream, in order, from its usage event and the changes and
 * results appended before it. Results count as recorded (one a regenerate withdrew included).
 */
export function requestUsageOf(events: readonly StreamEvent[]): RequestUsage[] {
  const requests: (RequestUsage & { managed: string[] })[] = [];
  let changes: string[] = [];
  let added = 0;
  let carried = 0;
  let compaction: StandaloneCompaction | undefined;
  let lastOutput = 0;
  const sources = new Map<string, DeltaSource>();
  for (const e of events) {
    noteEnableSources(sources, e);
    if (e.type === 'wire_change') changes.push(describeChange(e, sources));
    if (e.type === 'tool_result') added += estimateResultTokens(e.content);
    // Quiver's own compaction: the request before this event wrote the summary of everything.
    const last = requests.at(-1);
    if (e.type === 'compacted' && last !== undefined) compaction = { request: requests.length - 1, read: last.input + last.cacheRead + last.cacheWrite, summary: lastOutput };
    if (e.type !== 'usage') continue;
    carried += added;
    lastOutput = e.outputTokens;
    const prompt = e.inputTokens + e.cacheReadTokens + e.cacheWriteTokens;
    if (compaction !== undefined) requests[compaction.request]?.managed.push(standaloneNote(compaction, prompt));
    const managed = managedOf(e, requests.length);
    compaction = managed.standalone;
    requests.push({ input: e.inputTokens, cacheRead: e.cacheReadTokens, cacheWrite: e.cacheWriteTokens, readShare: prompt > 0 ? e.cacheReadTokens / prompt : 0, changes, cacheMiss: e.cacheMiss, results: { added, carried }, managed: managed.notes });
    changes = [];
    added = 0;
  }
  if (compaction !== undefined) requests[compaction.request]?.managed.push(standaloneNote(compaction, undefined));
  return requests;
}

export function resultCostsOf(events: readonly StreamEvent[]): ResultCosts {
  const results = events.filter((e): e is ToolResult => e.type === 'tool_result');
  const kept = results.filter((e) => e.kept !== undefined);
  const tokens = (list: readonly ToolResult[]): number => list.reduce((sum, e) => sum + estimateResultTokens(e.content), 0);
  return {
    count: results.length,
    sentTokens: tokens(results),
    kept: kept.length,
    keptShownTokens: tokens(kept),
    keptWholeTokens: kept.reduce((sum, e) => sum + tokensOfChars(e.kept?.totalChars ?? 0), 0),
    reads: results.filter((e) => e.name === READ_RESULT_NAME).length,
  };
}
