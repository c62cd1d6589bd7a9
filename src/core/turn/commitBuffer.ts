import { promote, resolveTool, type ToolEntry } from '../availability';
import { applyDelta } from '../stream/config';
import type { NotRunReason, SearchResultStatus, StreamEvent } from '../stream/events';
import type { ToolCallResult } from '../toolSource';
import type { ToolDefinition } from '../tools';
import { SEARCH_TOOLS_NAME } from '../tools';
import type { SearchHit } from './ports';

/** What one cycle produced, each tagged with the tool-call index it belongs to. */
export type BufferEntry =
  | { readonly index: number; readonly kind: 'result'; readonly toolUseId: string; readonly name: string; readonly result: ToolCallResult; readonly notRun: NotRunReason | undefined }
  /** A conversation toggle made while the cycle ran (the user's own, already checked against allow_toggle). */
  | { readonly index: number; readonly kind: 'write'; readonly tools: Readonly<Record<string, unknown>> }
  /** A search_tools call: the names in `results` are its promotion request (names only, nothing else); `notLoaded` is only reported. */
  | { readonly index: number; readonly kind: 'search'; readonly toolUseId: string; readonly results: readonly SearchHit[]; readonly notLoaded: readonly SearchHit[]; readonly total: number };

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

/**
 * Folds a cycle's buffer by tool-call index onto the cycle-start config (RFD 078/108). Each
 * search's promotion is evaluated against the state folded so far, at its own position:
 * discoverable → applied (usable), on → nothing to do (usable), off → skipped (found,
 * unavailable). Returns the events to append, in order, and the statuses of each search.
 */
export function foldCycle(
  start: ReadonlyMap<string, ToolEntry>,
  entries: readonly BufferEntry[],
  catalogue: readonly ToolDefinition[],
  at: string,
  render: (found: readonly FoundStatus[], notLoaded: readonly SearchHit[], total: number) => string,
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
      events.push({ type: 'tool_result', toolUseId: entry.toolUseId, name: entry.name, content: entry.result.content, isError: entry.result.isError, ...(entry.notRun ? { notRun: entry.notRun } : {}), at });
    } else {
      const found: FoundStatus[] = [];
      const promoted: Record<string, unknown> = {};
      for (const r of entry.results) {
        const tool = catalogue.find((t) => t.name === r.name);
        const outcome = tool ? promote(resolveTool(config, tool).availability) : 'skipped';
        if (outcome === 'applied') promoted[r.name] = { enable: { availability: 'on' } };
        found.push({ ...r, status: outcome === 'skipped' ? 'found, unavailable' : 'usable' });
      }
      if (Object.keys(promoted).length > 0) {
        const delta: StreamEvent = { type: 'config_delta', source: 'promotion', tools: promoted, at };
        applyDelta(config, delta);
        events.push(delta);
      }
      events.push({
        type: 'tool_result',
        toolUseId: entry.toolUseId,
        name: SEARCH_TOOLS_NAME,
        content: [{ type: 'text', text: render(found, entry.notLoaded, entry.total) }],
        isError: false,
        found: found.map(({ name, status }) => ({ name, status })),
        ...(entry.notLoaded.length > 0 ? { notLoaded: entry.notLoaded.map((t) => t.name) } : {}),
        at,
      });
    }
  }
  return events;
}
