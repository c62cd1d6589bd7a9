import type { HistoryItem, ItemsPatch, TokenUsage } from './items';
import type { StreamEvent } from '../stream/events';
import { HistoryFold } from './fold';

export interface FeedUpdate {
  /** What changed since the items were last shown (see applyItemsPatch). */
  readonly patch: ItemsPatch;
  readonly liveUsage: TokenUsage | null;
}

/**
 * The chat's items as the stream grows, told as what changed: the host folds each new event
 * (HistoryFold) and posts only the items it added or changed, so an event costs the same at any
 * length of conversation, on the host and in the webview. The items it reports as unchanged
 * keep their identity, so a renderer redraws only the ones that changed.
 */
export class HistoryFeed {
  private fold: HistoryFold;
  /** The stream's items as last reported. */
  private shown: HistoryItem[];
  /** Whether running calls were last shown cancelled (their turn open, no longer live). */
  private staleShown: boolean;

  /** `events` as the chat opens, shown whole. */
  constructor(events: readonly StreamEvent[], turnRunning: boolean) {
    this.fold = HistoryFold.of(events);
    this.shown = [...this.fold.history(turnRunning).items];
    this.staleShown = this.fold.turnOpen && !turnRunning;
  }

  /** The items as last reported. */
  get items(): readonly HistoryItem[] {
    return this.shown;
  }

  /** Folds what `events` (the stream the feed was made from, grown) added since, and says what changed. */
  update(events: readonly StreamEvent[], turnRunning: boolean): FeedUpdate {
    if (!this.fold.advance(events)) return this.refold(events, turnRunning);
    const stale = this.fold.turnOpen && !turnRunning;
    const changed = stale === this.staleShown ? this.fold.takeChanged() : [...new Set([...this.fold.takeChanged(), ...this.fold.runningSlots()])];
    this.staleShown = stale;
    const keep = this.shown.length;
    const patch = { keep, changed: [] as { index: number; item: HistoryItem }[], tail: [] as HistoryItem[] };
    for (const index of changed) {
      if (index >= keep) continue;
      const item = this.fold.itemAt(index, turnRunning);
      if (sameJson(this.shown[index], item)) continue;
      this.shown[index] = item;
      patch.changed.push({ index, item });
    }
    for (let index = keep; index < this.fold.itemCount; index++) {
      const item = this.fold.itemAt(index, turnRunning);
      this.shown.push(item);
      patch.tail.push(item);
    }
    return { patch, liveUsage: this.fold.liveUsage(turnRunning) };
  }

  /** An event rewrote the past: the stream folded anew, reported as what differs from what was shown. */
  private refold(events: readonly StreamEvent[], turnRunning: boolean): FeedUpdate {
    this.fold = HistoryFold.of(events);
    const next = keepIdentity(this.shown, this.fold.history(turnRunning).items);
    const patch = itemsPatch(this.shown, next);
    this.shown = next;
    this.staleShown = this.fold.turnOpen && !turnRunning;
    return { patch, liveUsage: this.fold.liveUsage(turnRunning) };
  }
}

/** `after`, with each item equal to the one of its id in `before` replaced by that one. */
function keepIdentity(before: readonly HistoryItem[], after: readonly HistoryItem[]): HistoryItem[] {
  const byId = new Map(before.map((it) => [it.id, it]));
  return after.map((it) => {
    const was = byId.get(it.id);
    return sameJson(was, it) ? (was as HistoryItem) : it;
  });
}

/**
 * Whether two items hold the same data: an item folded anew that shows what it showed keeps its
 * identity (a search card settled again as a tool it loaded is recorded, a call shown cancelled
 * while its turn was not live that was then recorded as cancelled).
 */
function sameJson(a: HistoryItem | undefined, b: HistoryItem): boolean {
  return a === b || (a !== undefined && JSON.stringify(a) === JSON.stringify(b));
}

/** The patch that turns `before` into `after`: the items at the same places by id are kept (or changed), the rest replaced. */
export function itemsPatch(before: readonly HistoryItem[], after: readonly HistoryItem[]): ItemsPatch {
  let keep = 0;
  while (keep < before.length && keep < after.length && before[keep]?.id === after[keep]?.id) keep++;
  const changed: { index: number; item: HistoryItem }[] = [];
  for (let index = 0; index < keep; index++) {
    const item = after[index] as HistoryItem;
    if (item !== before[index]) changed.push({ index, item });
  }
  return { keep, changed, tail: after.slice(keep) };
}
