import { renderCompacted } from './render/compacted';
import type { ChatSnapshot, HistoryItem } from '../src/protocol';
import { h, icon } from './dom';
import { renderMarkdown } from './render/markdown';
import { renderSearchCard } from './render/searchCard';
import { markClippedPreviews, renderThinking, type ThinkingView } from './render/thinking';
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
  private rendered = new Map<string, Rendered>();

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

  /** Redraws what changed; keeping to the bottom is the BottomFollower's business (follow.ts). */
  render(state: ChatSnapshot): void {
    const lastSummary = findLastSummary(state.items);
    const liveThinking = state.busy ? latestThinkingOfTurn(state.items) : undefined;
    const next = new Map<string, Rendered>();
    const els: HTMLElement[] = [];
    const askingCalls = new Set(state.pendingElicitations.map((p) => p.callId));
    for (const [i, item] of state.items.entries()) {
      const actionable = !state.busy && (item === lastSummary || item.kind === 'user');
      const thinking = item.kind === 'thinking' ? { live: item === liveThinking, streaming: item === liveThinking && i === state.items.length - 1 } : null;
      const asking = askingCalls.has(item.id);
      const prev = this.rendered.get(item.id);
      const reuse = prev && prev.item === item && prev.actionable === actionable && prev.asking === asking && sameView(prev.thinking, thinking);
      const r = reuse ? prev : { item, actionable, thinking, asking, el: this.renderItem(item, actionable, thinking, asking, prev?.el ?? null) };
      next.set(item.id, r);
      els.push(r.el);
    }
    reconcile(this.list, els);
    markClippedPreviews(this.list);
    this.rendered = next;
    this.empty.hidden = state.items.length > 0;
    const last = state.items[state.items.length - 1];
    // Streaming text shows itself, and streaming thinking says so in its own summary.
    this.working.hidden = !state.busy || (last !== undefined && (last.kind === 'assistant' || last.kind === 'thinking')) || state.pendingApprovals.length > 0 || state.pendingElicitations.length > 0;
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

/** Puts `els` into `parent` in order, moving only what is out of place. */
function reconcile(parent: HTMLElement, els: readonly HTMLElement[]): void {
  els.forEach((el, i) => {
    const at = parent.children[i];
    if (at !== el) parent.insertBefore(el, at ?? null);
  });
  while (parent.children.length > els.length) parent.lastElementChild?.remove();
}
