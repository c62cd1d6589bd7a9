import { promote, resolveTool, type PromotionOutcome, type ToolEntry } from '../availability';
import { applyDelta } from '../stream/config';
import type { KeptResult, NotRunReason, SearchResultStatus, StreamEvent } from '../stream/events';
import type { ToolCallResult } from '../tools/toolSource';
import type { ToolDefinition } from '../tools/definitions';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';
import { closeToBest, splitByLoadBudget, type SearchToolsHit } from '../search';
import { estimateToolTokens } from '../overhead/tokens';
import type { SignInHit } from './ports';

/** What one cycle produced, each tagged with the tool-call index it belongs to. */
export type BufferEntry =
  /**
   * `kept`: the result is a view, its whole kept in the result store (see keptResults).
   * `stopped`: the call was running when the user stopped the turn (it ran, so it is not `notRun`).
   */
  | { readonly index: number; readonly kind: 'result'; readonly toolUseId: string; readonly name: string; readonly result: ToolCallResult; readonly notRun: NotRunReason | undefined; readonly kept?: KeptResult; readonly stopped?: true }
  /** A conversation toggle made while the cycle ran (the user's own, already checked against allow_toggle). */
  | { readonly index: number; readonly kind: 'write'; readonly tools: Readonly<Record<string, unknown>> }
  /**
   * A search_tools call: the names in `results` (best first) are its promotion request (names
   * only, nothing else), of which the fold promotes as many as `loadBudget` allows.
   * `alreadyLoaded`: its matches among the tools offered at cycle start, named, never promoted;
   * `signInRequired`: its matches behind servers waiting for sign-in; `waitingForSignIn`: such
   * servers whose tools are not known, so not searched; `serversStarting`: servers still starting,
   * whose tools are not listed yet, so not searched (each absent when empty).
   */
  | {
      readonly index: number;
      readonly kind: 'search';
      readonly toolUseId: string;
      readonly results: readonly SearchToolsHit[];
      readonly loadBudget: number;
      readonly total: number;
      readonly alreadyLoaded?: readonly SearchToolsHit[];
      readonly signInRequired?: readonly SignInHit[];
      readonly waitingForSignIn?: readonly string[];
      readonly serversStarting?: readonly string[];
    };

type SearchEntry = Extract<BufferEntry, { kind: 'search' }>;

/** Collects a cycle's results and config writes; toggles made mid-cycle land at the running call's index. */
export class CommitBuffer {
  private readonly items: BufferEntry[] = [];
  /** The call now executing; writes arriving now fold before later calls. */
  position = 0;

  push(entry: BufferEntry): void {
    this.items.push(entry);
  }

  write(tools: Readonly<Record<string, unknown>>): void {
    this.items.push({ index: this.position, kind: 'write', tools });
  }

  entries(): readonly BufferEntry[] {
    return this.items;
  }
}

export interface FoundStatus {
  readonly name: string;
  readonly summary: string;
  readonly status: SearchResultStatus;
}

type Judged =
  | { readonly hit: SearchToolsHit; readonly outcome: 'applied'; readonly tool: ToolDefinition }
  | { readonly hit: SearchToolsHit; readonly outcome: Exclude<PromotionOutcome, 'applied'> };

/** What one search reported, as the model's text renders it (renderSearchResult). */
export interface SearchReport {
  readonly found: readonly FoundStatus[];
  readonly notLoaded: readonly SearchToolsHit[];
  /** Matches that were loaded before this search: callable, not promoted, no budget spent. */
  readonly alreadyLoaded: readonly SearchToolsHit[];
  /** Matches behind servers waiting for sign-in: neither loaded nor callable until the user signs in. */
  readonly signInRequired: readonly SignInHit[];
  /** Servers waiting for sign-in whose tools are not known, so not searched. */
  readonly waitingForSignIn: readonly string[];
  /** Servers still starting: their tools are not listed yet, so not searched. */
  readonly serversStarting: readonly string[];
  readonly total: number;
}

interface FoldedSearch {
  readonly found: readonly FoundStatus[];
  readonly notLoaded: readonly SearchToolsHit[];
  readonly alreadyLoaded: readonly SearchToolsHit[];
  /** The promotion delta's tools: those this search loads. */
  readonly promoted: Readonly<Record<string, unknown>>;
}

function judge(hit: SearchToolsHit, config: ReadonlyMap<string, ToolEntry>, catalogue: readonly ToolDefinition[]): Judged {
  const tool = catalogue.find((t) => t.name === hit.name);
  if (!tool) return { hit, outcome: 'skipped' };
  const outcome = promote(resolveTool(config, tool).availability);
  return outcome === 'applied' ? { hit, outcome, tool } : { hit, outcome };
}

/**
 * Whether a tool offered at cycle start (an `alreadyLoaded` match) is still loaded at the fold's
 * position: unless a write earlier in the cycle moved it off `on`. A tool whose availability no
 * write changed stays as the plan offered it (the forced tool included).
 */
function stillLoaded(name: string, start: ReadonlyMap<string, ToolEntry>, config: ReadonlyMap<string, ToolEntry>, catalogue: readonly ToolDefinition[]): boolean {
  const tool = catalogue.find((t) => t.name === name) ?? { name, server: undefined };
  const now = resolveTool(config, tool).availability;
  return now === 'on' || now === resolveTool(start, tool).availability;
}

/**
 * One search evaluated against the state folded so far: off → found, unavailable; on already
 * (an earlier call of this cycle promoted it) → usable; discoverable → promoted while each is
 * close enough to the best match and the load budget lasts, the rest named as not loaded. Only
 * promotions spend the budget: they are what adds definitions to every later request.
 */
function foldSearch(entry: SearchEntry, start: ReadonlyMap<string, ToolEntry>, config: ReadonlyMap<string, ToolEntry>, catalogue: readonly ToolDefinition[]): FoldedSearch {
  const judged = entry.results.map((hit) => judge(hit, config, catalogue));
  const promotable = judged.filter((j): j is Extract<Judged, { outcome: 'applied' }> => j.outcome === 'applied');
  // Closeness is judged against the search's own best match, whatever the fold made of it.
  const best = entry.results[0];
  const { loaded, notLoaded } = splitByLoadBudget(promotable, (j) => estimateToolTokens(j.tool), entry.loadBudget, (j) => best === undefined || closeToBest(j.hit, best));
  const left = new Set<Judged>(notLoaded);
  return {
    found: judged.filter((j) => !left.has(j)).map((j): FoundStatus => ({ ...j.hit, status: j.outcome === 'skipped' ? 'found, unavailable' : 'usable' })),
    notLoaded: notLoaded.map((j) => j.hit),
    alreadyLoaded: (entry.alreadyLoaded ?? []).filter((hit) => stillLoaded(hit.name, start, config, catalogue)),
    promoted: Object.fromEntries(loaded.map((j) => [j.hit.name, { enable: { availability: 'on' } }])),
  };
}

/**
 * The promotion a user's message earns before the turn's first request (quiver.search.preload):
 * its confident matches, folded as a search's results are (discoverable → on only, within the
 * load budget and the relevance rule), recorded as a promotion marked `preload`. None when
 * nothing is promotable.
 */
export function preloadDelta(matches: readonly SearchToolsHit[], config: ReadonlyMap<string, ToolEntry>, catalogue: readonly ToolDefinition[], loadBudget: number, at: string): StreamEvent[] {
  const entry: SearchEntry = { index: 0, kind: 'search', toolUseId: '', results: matches, loadBudget, total: matches.length };
  const { promoted } = foldSearch(entry, config, config, catalogue);
  return Object.keys(promoted).length > 0 ? [{ type: 'config_delta', source: 'promotion', tools: promoted, preload: true, at }] : [];
}

/**
 * Folds a cycle's buffer by tool-call index onto the cycle-start config (RFD 078/108). Each
 * search's promotion is evaluated against the state folded so far, at its own position:
 * discoverable → applied (usable) while the search's load budget lasts, not loaded after;
 * on → nothing to do (usable); off → skipped (found, unavailable); see foldSearch. Returns the
 * events to append, in order, and the statuses of each search.
 */
export function foldCycle(
  start: ReadonlyMap<string, ToolEntry>,
  entries: readonly BufferEntry[],
  catalogue: readonly ToolDefinition[],
  at: string,
  render: (report: SearchReport) => string,
): StreamEvent[] {
  const config = new Map(start);
  const events: StreamEvent[] = [];
  const ordered = entries.map((e, i) => ({ e, i })).sort((a, b) => a.e.index - b.e.index || a.i - b.i).map(({ e }) => e);
  for (const entry of ordered) {
    if (entry.kind === 'write') {
      const delta: StreamEvent = { type: 'config_delta', source: 'user', tools: entry.tools, at };
      applyDelta(config, delta);
      events.push(delta);
    } else if (entry.kind === 'result') {
      events.push({ type: 'tool_result', toolUseId: entry.toolUseId, name: entry.name, content: entry.result.content, isError: entry.result.isError, ...(entry.notRun ? { notRun: entry.notRun } : {}), ...(entry.stopped ? { stopped: true } : {}), ...(entry.kept ? { kept: entry.kept } : {}), ...(entry.result.changes ? { changes: entry.result.changes } : {}), at });
    } else {
      const { found, notLoaded, alreadyLoaded, promoted } = foldSearch(entry, start, config, catalogue);
      const { signInRequired = [], waitingForSignIn = [], serversStarting = [] } = entry;
      if (Object.keys(promoted).length > 0) {
        const delta: StreamEvent = { type: 'config_delta', source: 'promotion', tools: promoted, at };
        applyDelta(config, delta);
        events.push(delta);
      }
      events.push({
        type: 'tool_result',
        toolUseId: entry.toolUseId,
        name: SEARCH_TOOLS_NAME,
        content: [{ type: 'text', text: render({ found, notLoaded, alreadyLoaded, signInRequired, waitingForSignIn, serversStarting, total: entry.total }) }],
        isError: false,
        found: found.map(({ name, status }) => ({ name, status })),
        ...(notLoaded.length > 0 ? { notLoaded: notLoaded.map((t) => t.name) } : {}),
        ...(alreadyLoaded.length > 0 ? { alreadyLoaded: alreadyLoaded.map((t) => t.name) } : {}),
        ...(signInRequired.length > 0 ? { signInRequired: signInRequired.map((t) => t.name) } : {}),
        ...(waitingForSignIn.length > 0 ? { waitingForSignIn } : {}),
        ...(serversStarting.length > 0 ? { serversStarting } : {}),
        at,
      });
    }
  }
  return events;
}
