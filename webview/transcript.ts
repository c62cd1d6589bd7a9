import { renderCompacted } from './render/compacted';
import type { ChatSnapshot, HistoryItem } from '../src/protocol';
import { h, icon } from './dom';
import { renderMarkdown } from './render/markdown';
import { renderSearchCard } from './render/searchCard';
import { markClippedPreview, renderThinking, type ThinkingView } from './render/thinking';
import { renderToolCard } from './render/toolCard';
import { renderTurnSummary } from './render/turnSummary';
import { renderUserMessage, type FailedMessageActions } from './render/userMessage';

interface Rendered {
  readonly item: HistoryItem;
  readonly el: HTMLElement;
  /** Whether its buttons act: the last summary's Regenerate, a failed message's Retry, Edit and Drop (not while a turn runs). */
  readonly actionable: boolean;
  /** A thinking section's place in the running turn (null for other items). */
  readonly thinking: ThinkingView | null;
  /** A tool call whose server is asking the user something (its question waits above the message box). */
  readonly asking: boolean;
}

/**
 * The conversation, keyed by item id. Items are immutable and the reducer keeps unchanged ones
 * identical, so an item is redrawn only when its object changed; streaming text redraws one item.
 */
export class Transcript {
  readonly el = h('div', { class: 'transcript', attrs: { role: 'log', 'aria-live': 'polite' } });
  private readonly list = h('div', { class: 'items' });
  private readonly working = h('div', { class: 'working' }, icon('loading', 'codicon-modifier-spin'), h('span', {}, 'Working…'));
  private readonly empty = h(
    'div',
    { class: 'empty-state' },
    icon('comment-discussion', 'empty-icon'),
    h('p', {}, 'Ask Quiver anything. Tools from your MCP servers are found on demand.'),
    h('p', { class: 'muted' }, 'Type / for commands: /tools, /use NAME message, /set KEY=VALUE.'),
  );
  /** What the list shows, in its order. */
  private rendered: readonly Rendered[] = [];

  constructor(
    private readonly onRegenerate: () => void,
    private readonly failedActions: FailedMessageActions,
  ) {
    this.el.append(this.empty, this.list, this.working);
  }

  /** The children whose size changes as the conversation grows (the scroller's follower watches them). */
  get content(): readonly HTMLElement[] {
    return [this.empty, this.list, this.working];
  }

  /**
   * Redraws what changed; keeping to the bottom is the BottomFollower's business (follow.ts).
   * Items keep their places by id: those before the first place whose id changed are redrawn in
   * place only when their object or how they stand changed, and the rest are matched by id.
   */
  render(state: ChatSnapshot): void {
    const items = state.items;
    const view = viewOf(state);
    const before = this.rendered;
    let same = 0;
    while (same < before.length && same < items.length && (before[same] as Rendered).item.id === (items[same] as HistoryItem).id) same++;
    const next: Rendered[] = [];
    for (let i = 0; i < same; i++) {
      const prev = before[i] as Rendered;
      const r = this.draw(items[i] as HistoryItem, i, view, prev);
      if (r.el !== prev.el) this.list.replaceChild(r.el, prev.el);
      next.push(r);
    }
    const rest = new Map(before.slice(same).map((r) => [r.item.id, r]));
    const moved: HTMLElement[] = [];
    for (let i = same; i < items.length; i++) {
      const item = items[i] as HistoryItem;
      const prev = rest.get(item.id);
      rest.delete(item.id);
      const r = this.draw(item, i, view, prev);
      if (prev && r.el !== prev.el) prev.el.remove();
      next.push(r);
      moved.push(r.el);
    }
    for (const gone of rest.values()) gone.el.remove();
    placeAfter(this.list, next[same - 1]?.el ?? null, moved);
    this.rendered = next;
    for (let i = next.length - 1; view.liveThinking && i >= 0; i--) {
      const r = next[i] as Rendered;
      if (r.item !== view.liveThinking) continue;
      markClippedPreview(r.el);
      break;
    }
    this.empty.hidden = items.length > 0;
    const last = items[items.length - 1];
    // Streaming text shows itself, and streaming thinking says so in its own summary.
    this.working.hidden = !state.busy || (last !== undefined && (last.kind === 'assistant' || last.kind === 'thinking')) || state.pendingApprovals.length > 0 || state.pendingElicitations.length > 0;
  }

  /** Item `i` as it stands in `view`: `prev` again when neither it nor how it stands changed. */
  private draw(item: HistoryItem, i: number, view: TranscriptView, prev: Rendered | undefined): Rendered {
    // Only a failed message has buttons: a sent one looks the same busy or not, and is not redrawn when a turn starts or ends.
    const actionable = !view.busy && (item === view.lastSummary || (item.kind === 'user' && item.status === 'failed'));
    const thinking = item.kind === 'thinking' ? { live: item === view.liveThinking, streaming: item === view.liveThinking && i === view.count - 1 } : null;
    const asking = view.asking.has(item.id);
    if (prev && prev.item === item && prev.actionable === actionable && prev.asking === asking && sameView(prev.thinking, thinking)) return prev;
    return { item, actionable, thinking, asking, el: this.renderItem(item, actionable, thinking, asking, prev?.el ?? null) };
  }

  private renderItem(item: HistoryItem, actionable: boolean, thinking: ThinkingView | null, asking: boolean, prevEl: HTMLElement | null): HTMLElement {
    const open = prevEl instanceof HTMLDetailsElement && prevEl.dataset['touched'] === 'true' ? prevEl.open : null;
    let el: HTMLElement;
    switch (item.kind) {
      case 'user':
        el = renderUserMessage(item, actionable ? this.failedActions : null);
        break;
      case 'assistant':
        el = renderMarkdown(item.markdown);
        el.classList.add('item', 'assistant');
        break;
      case 'thinking': {
        const into = prevEl instanceof HTMLDetailsElement && prevEl.classList.contains('thinking') ? prevEl : null;
        el = renderThinking(item, thinking ?? { live: false, streaming: false }, open, into);
        // Updated in place: it already has its id and its summary's listener.
        if (el === into) return el;
        break;
      }
      case 'tool_call':
        el = renderToolCard(item, open, asking);
        break;
      case 'search':
        el = renderSearchCard(item, open);
        break;
      case 'turn_summary':
        el = renderTurnSummary(item, actionable ? this.onRegenerate : null);
        break;
      case 'compacted':
        el = renderCompacted(item);
        break;
    }
    if (el instanceof HTMLDetailsElement) {
      if (open !== null) el.dataset['touched'] = 'true';
      // Remembers that the user chose the state, so a re-render keeps it instead of the default.
      el.querySelector('summary')?.addEventListener('click', () => {
        el.dataset['touched'] = 'true';
      });
    }
    el.dataset['id'] = item.id;
    return el;
  }
}

/** The newest thinking section of the turn still running (after the last turn summary), if any. */
function latestThinkingOfTurn(items: readonly HistoryItem[]): HistoryItem | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it?.kind === 'turn_summary') return undefined;
    if (it?.kind === 'thinking') return it;
  }
  return undefined;
}

function sameView(a: ThinkingView | null, b: ThinkingView | null): boolean {
  return a === b || (a !== null && b !== null && a.live === b.live && a.streaming === b.streaming);
}

function findLastSummary(items: readonly HistoryItem[]): HistoryItem | undefined {
  const last = items[items.length - 1];
  return last?.kind === 'turn_summary' ? last : undefined;
}

/** What every item's look depends on besides itself. */
interface TranscriptView {
  readonly busy: boolean;
  readonly count: number;
  readonly lastSummary: HistoryItem | undefined;
  readonly liveThinking: HistoryItem | undefined;
  /** Calls whose server is asking the user something. */
  readonly asking: ReadonlySet<string>;
}

function viewOf(state: ChatSnapshot): TranscriptView {
  return {
    busy: state.busy,
    count: state.items.length,
    lastSummary: findLastSummary(state.items),
    liveThinking: state.busy ? latestThinkingOfTurn(state.items) : undefined,
    asking: new Set(state.pendingElicitations.map((p) => p.callId)),
  };
}

/** Puts `els` in order right after `anchor` (first in `parent` when null), moving only what is out of place. */
function placeAfter(parent: HTMLElement, anchor: HTMLElement | null, els: readonly HTMLElement[]): void {
  let at = anchor ? anchor.nextElementSibling : parent.firstElementChild;
  for (const el of els) {
    if (el === at) at = el.nextElementSibling;
    else parent.insertBefore(el, at);
  }
}
