import { MISSING_KEY_CAUSE } from '../models/model';
import { chipOf } from '../attachments/attachment';
import { undoneCalls, type FileChange } from '../edits';
import { addUsage, EMPTY_USAGE, type FoundTool, type HistoryItem, type TokenUsage } from './items';
import { loadedRows, searchDone, settleSearchCard } from '../search/card';
import { ConfigFold } from '../stream/config';
import type { StreamEvent, WireTool } from '../stream/events';
import { droppedMessages, failedMessages } from '../stream/failedMessages';
import { SEARCH_TOOLS_NAME } from '../tools/definitions';
import { failedStatus, gatherThinking, itemIdForEvent, outputParts, thinkingItem, toolOutcome, turnChanges } from './eventItems';

export interface ChatHistory {
  readonly items: readonly HistoryItem[];
  /** Usage so far of a turn still running (only when `turnRunning`), else null. */
  readonly liveUsage: TokenUsage | null;
}

/**
 * What later events say about earlier ones, read from the whole stream before it is folded:
 * which user messages were not sent (and why) or were dropped, and which calls' changes were undone.
 */
interface Hindsight {
  readonly failed: ReadonlyMap<number, string | undefined>;
  readonly dropped: ReadonlySet<number>;
  readonly undone: ReadonlySet<string>;
}

type FileChanges = { readonly toolUseId: string; readonly changes: readonly FileChange[] };

/**
 * Maps a conversation's stream to the items the chat renders, one event at a time.
 *
 * Promotion attribution: a `promotion` delta names the tools a search_tools call promoted. It is
 * credited to the latest search result since the last assistant message that found the tool as
 * usable (its row turns from `already on` to `loaded`); a delta recorded before its search result
 * waits for the next one. The turn loop may record either order. Loaded rows are then settled
 * against the config and the wire's definitions as they stand now (searchCard.ts): unloaded
 * since, and what each costs a request.
 *
 * An event adds items at the end or changes a few in place, found through indexes (ids, running
 * calls, the cards that loaded a tool), so folding one costs the same at any length of stream.
 * The events that change how earlier ones read (`rewritesPast`) are not folded onto a fold: the
 * stream is folded anew, with the hindsight they bring.
 */
export class HistoryFold {
  private readonly slots: HistoryItem[] = [];
  private readonly slotOf = new Map<string, number>();
  /** The slots whose call is still running. */
  private readonly running = new Set<number>();
  /** For each tool a search card shows loaded, that card's slots: a change of the tool's entry or definition re-settles them. */
  private readonly loadedBy = new Map<string, Set<number>>();
  private readonly config = new ConfigFold();
  /** The first definition the wire recorded of each tool. */
  private readonly definitions = new Map<string, WireTool>();
  /** Slots added or changed since `takeChanged` was last called. */
  private readonly changed = new Set<number>();
  private folded = 0;
  private turnUsage: TokenUsage | null = null;
  private turnModel: string | null = null;
  private inTurn = false;
  /** Slots before this index are never withdrawn by a restart (user messages, earlier restarts). */
  private floor = 0;
  /** Where each assistant message's items begin, so a restart knows what to withdraw. */
  private readonly assistantStarts: number[] = [];
  private openSearches: number[] = [];
  private pendingPromotions = new Set<string>();
  /** The current turn's message was dropped: its summary (the refusal) goes with it. */
  private turnDropped = false;
  /** The file changes of the current turn's calls, for its summary. */
  private turnFileChanges: FileChanges[] = [];

  private constructor(private readonly hindsight: Hindsight) {}

  /** The whole of `events`, folded. */
  static of(events: readonly StreamEvent[]): HistoryFold {
    const fold = new HistoryFold({ failed: failedMessages(events), dropped: droppedMessages(events), undone: undoneCalls(events) });
    fold.foldFrom(events);
    fold.changed.clear();
    return fold;
  }

  /**
   * Whether `e` changes how earlier events read: a turn that failed marks its message not sent,
   * a restart may send a failed message again, a drop hides a message and its turn's end, an
   * undo marks a turn's changes undone.
   */
  static rewritesPast(e: StreamEvent): boolean {
    return e.type === 'restart' || e.type === 'message_dropped' || e.type === 'changes_undone' || (e.type === 'turn_end' && e.reason === 'error');
  }

  /**
   * Folds the events of `events` (the stream this fold was made from, grown) that it has not
   * folded yet. False, folding none, when one of them rewrites the past: fold the stream anew.
   */
  advance(events: readonly StreamEvent[]): boolean {
    for (let i = this.folded; i < events.length; i++) if (HistoryFold.rewritesPast(events[i] as StreamEvent)) return false;
    this.foldFrom(events);
    return true;
  }

  get itemCount(): number {
    return this.slots.length;
  }

  /** Whether the stream's last turn has begun and not ended. */
  get turnOpen(): boolean {
    return this.inTurn;
  }

  /** The slots added or changed since the last call (or since the fold was made), ascending. */
  takeChanged(): number[] {
    const list = [...this.changed].sort((a, b) => a - b);
    this.changed.clear();
    return list;
  }

  runningSlots(): readonly number[] {
    return [...this.running];
  }

  /**
   * The item slot `i` shows: a search card settled; a call still running shown cancelled when
   * its turn is open but not running (`turnRunning` false: the window closed mid-turn).
   */
  itemAt(i: number, turnRunning: boolean): HistoryItem {
    const item = this.slots[i] as HistoryItem;
    if (!turnRunning && this.inTurn && this.running.has(i)) return cancelled(item);
    return settleSearchCard(item, this.config.config, this.definitions);
  }

  liveUsage(turnRunning: boolean): TokenUsage | null {
    return this.inTurn && turnRunning ? (this.turnUsage ?? EMPTY_USAGE) : null;
  }

  history(turnRunning: boolean): ChatHistory {
    return { items: this.slots.map((_, i) => this.itemAt(i, turnRunning)), liveUsage: this.liveUsage(turnRunning) };
  }

  private foldFrom(events: readonly StreamEvent[]): void {
    for (; this.folded < events.length; this.folded++) this.add(events[this.folded] as StreamEvent, this.folded);
  }

  private push(item: HistoryItem): void {
    const at = this.slots.length;
    this.slots.push(item);
    this.slotOf.set(item.id, at);
    this.changed.add(at);
    if ((item.kind === 'tool_call' || item.kind === 'search') && item.outcome.status === 'running') this.running.add(at);
  }

  private set(at: number, item: HistoryItem): void {
    this.slots[at] = item;
    this.changed.add(at);
    if ((item.kind !== 'tool_call' && item.kind !== 'search') || item.outcome.status !== 'running') this.running.delete(at);
    for (const name of loadedRows(item)) this.loadedBy.set(name, (this.loadedBy.get(name) ?? new Set()).add(at));
  }

  /** The cards that show `name` loaded read its entry and definition: they change with them. */
  private resettle(name: string): void {
    for (const at of this.loadedBy.get(name) ?? []) this.changed.add(at);
  }

  private add(e: StreamEvent, index: number): void {
    switch (e.type) {
      case 'turn_start':
        this.inTurn = true;
        this.turnUsage = null;
        this.turnModel = null;
        this.openSearches = [];
        this.pendingPromotions = new Set();
        this.turnFileChanges = [];
        break;
      case 'user_message':
        this.turnDropped = this.hindsight.dropped.has(index);
        if (this.turnDropped) break;
        this.push({ kind: 'user', id: itemIdForEvent(index), text: e.text, forced: e.forced ?? null, attachments: (e.attachments ?? []).map(chipOf), ...failedStatus(this.hindsight.failed, index) });
        this.floor = this.slots.length;
        break;
      case 'assistant_message':
        this.addReply(e, index);
        break;
      case 'tool_result':
        this.addResult(e);
        break;
      case 'config_delta':
        this.config.apply(e);
        for (const name of Object.keys(e.tools)) this.resettle(name);
        if (e.source === 'promotion') this.creditPromotion(new Set(Object.keys(e.tools)));
        break;
      case 'wire_tools':
        for (const t of e.tools) {
          if (this.definitions.has(t.name)) continue;
          this.definitions.set(t.name, t);
          this.resettle(t.name);
        }
        break;
      case 'usage': {
        const u: TokenUsage = { input: e.inputTokens, output: e.outputTokens, cacheRead: e.cacheReadTokens, cacheWrite: e.cacheWriteTokens };
        this.turnUsage = addUsage(this.turnUsage ?? EMPTY_USAGE, u);
        this.turnModel = e.model;
        break;
      }
      case 'turn_end':
        this.cancelRunning();
        // A message not sent for want of a key says so itself; the how-to is the chat's key notice, which goes once a key is set.
        if (!this.turnDropped && e.cause !== MISSING_KEY_CAUSE) {
          const changes = turnChanges(this.turnFileChanges, this.hindsight.undone);
          this.push({ kind: 'turn_summary', id: itemIdForEvent(index), reason: e.reason, message: e.message ?? null, model: this.turnModel, usage: this.turnUsage, changes });
        }
        this.turnFileChanges = [];
        this.inTurn = false;
        this.turnDropped = false;
        this.openSearches = [];
        this.pendingPromotions = new Set();
        break;
      case 'restart': {
        // Withdraw the latest assistant message and all that followed it; usage already spent
        // stays counted in the turn, and the turn is open again.
        const start = this.assistantStarts.pop();
        this.truncate(start !== undefined && start >= this.floor ? start : this.floor);
        this.floor = this.slots.length;
        this.inTurn = true;
        this.openSearches = [];
        break;
      }
      case 'wire_system':
      case 'wire_change':
      case 'renamed':
      case 'message_dropped':
      case 'changes_undone':
        break;
    }
  }

  private addReply(e: Extract<StreamEvent, { type: 'assistant_message' }>, index: number): void {
    this.openSearches = [];
    this.assistantStarts.push(this.slots.length);
    for (const { k, block } of gatherThinking(e.content)) {
      if (block.type === 'thinking_run') {
        const item = thinkingItem(block.blocks, itemIdForEvent(index, k));
        if (item) this.push(item);
      } else if (block.type === 'text') {
        if (block.text.trim() !== '') this.push({ kind: 'assistant', id: itemIdForEvent(index, k), markdown: block.text });
      } else if (block.type === 'compaction') {
        this.push({ kind: 'compacted', id: itemIdForEvent(index, k), summary: block.summary });
      } else {
        // A tool_use id seen before (a reply repeating one) gets its place as a suffix: ids stay unique.
        const id = this.slotOf.has(block.id) ? `${block.id}#${itemIdForEvent(index, k)}` : block.id;
        this.push(
          block.name === SEARCH_TOOLS_NAME
            ? { kind: 'search', id, input: block.input, outcome: { status: 'running' } }
            : { kind: 'tool_call', id, name: block.name, input: block.input, outcome: { status: 'running' } },
        );
      }
    }
  }

  private addResult(e: Extract<StreamEvent, { type: 'tool_result' }>): void {
    const at = this.slotOf.get(e.toolUseId);
    if (at === undefined) return;
    const it = this.slots[at] as HistoryItem;
    if (it.kind === 'tool_call') {
      this.set(at, { ...it, outcome: toolOutcome(e) });
      if (e.changes !== undefined && e.changes.length > 0) this.turnFileChanges.push({ toolUseId: e.toolUseId, changes: e.changes });
    } else if (it.kind === 'search') {
      if (e.isError || e.found === undefined) {
        this.set(at, { ...it, outcome: e.isError ? { status: 'error', output: outputParts(e.content) } : { status: 'done', found: [] } });
        return;
      }
      this.set(at, { ...it, outcome: searchDone(e) });
      if (this.pendingPromotions.size > 0) {
        this.markPromoted(at, this.pendingPromotions);
        for (const f of e.found) this.pendingPromotions.delete(f.name);
      }
      this.openSearches.push(at);
    }
  }

  /** Credits promoted tools to the open searches that found them, latest first; the rest wait for the next search result. */
  private creditPromotion(names: Set<string>): void {
    for (let i = this.openSearches.length - 1; i >= 0 && names.size > 0; i--) {
      const at = this.openSearches[i] as number;
      const item = this.slots[at] as HistoryItem;
      if (item.kind !== 'search' || item.outcome.status !== 'done') continue;
      const credited = item.outcome.found.filter((f) => f.status === 'already on' && names.has(f.name)).map((f) => f.name);
      if (this.markPromoted(at, new Set(credited))) for (const n of credited) names.delete(n);
    }
    for (const n of names) this.pendingPromotions.add(n);
  }

  private markPromoted(at: number, names: ReadonlySet<string>): boolean {
    const item = this.slots[at] as HistoryItem;
    if (item.kind !== 'search' || item.outcome.status !== 'done') return false;
    let hit = false;
    const found = item.outcome.found.map((f): FoundTool => {
      if (names.has(f.name) && f.status === 'already on') {
        hit = true;
        return { ...f, status: 'loaded' };
      }
      return f;
    });
    if (hit) this.set(at, { ...item, outcome: { ...item.outcome, found } });
    return hit;
  }

  private cancelRunning(): void {
    for (const at of this.running) this.set(at, cancelled(this.slots[at] as HistoryItem));
  }

  private truncate(cut: number): void {
    for (let at = cut; at < this.slots.length; at++) {
      const id = (this.slots[at] as HistoryItem).id;
      if (this.slotOf.get(id) === at) this.slotOf.delete(id);
      this.running.delete(at);
      this.changed.delete(at);
    }
    for (const cards of this.loadedBy.values()) for (const at of cards) if (at >= cut) cards.delete(at);
    this.slots.length = cut;
  }
}

function cancelled(item: HistoryItem): HistoryItem {
  if (item.kind === 'tool_call') return { ...item, outcome: { status: 'cancelled' } };
  if (item.kind === 'search') return { ...item, outcome: { status: 'cancelled' } };
  return item;
}

/** The items the chat renders for a whole stream; `turnRunning` says whether its last turn is live. */
export function historyFromStream(events: readonly StreamEvent[], turnRunning: boolean): ChatHistory {
  return HistoryFold.of(events).history(turnRunning);
}
