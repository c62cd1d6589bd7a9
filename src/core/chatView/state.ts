/**
 * How a host message changes the chat's state (contract.ts): the webview renders with it, and
 * the host keeps a mirror with it, so that `snapshot()` stays exactly what the webview shows.
 */
import { applyItemsPatch, EMPTY_USAGE, type HistoryItem } from '../chat/items';
import type { ChatSnapshot, HostToWebview } from './contract';

function replaceItem(items: readonly HistoryItem[], itemId: string, update: (item: HistoryItem) => HistoryItem): readonly HistoryItem[] {
  const i = items.findIndex((it) => it.id === itemId);
  if (i < 0) return items;
  const current = items[i] as HistoryItem;
  const next = update(current);
  if (next === current) return items;
  const copy = items.slice();
  copy[i] = next;
  return copy;
}

/** Calls still running when a turn ends never got a result. */
function cancelRunning(items: readonly HistoryItem[]): readonly HistoryItem[] {
  let changed = false;
  const next = items.map((it): HistoryItem => {
    if ((it.kind === 'tool_call' || it.kind === 'search') && it.outcome.status === 'running') {
      changed = true;
      return it.kind === 'tool_call' ? { ...it, outcome: { status: 'cancelled' } } : { ...it, outcome: { status: 'cancelled' } };
    }
    return it;
  });
  return changed ? next : items;
}

/**
 * Applies one host message to a snapshot. Unchanged items keep their identity, so a renderer can
 * redraw only the items whose object changed. `banner`, `focusComposer`, `fileCompletions` and
 * `restoreDraft` do not change the snapshot: they are transient, not conversation state.
 */
export function applyHostMessage(state: ChatSnapshot, msg: HostToWebview): ChatSnapshot {
  switch (msg.type) {
    case 'snapshot':
      return msg.state;
    case 'historyPatch':
      return {
        ...state,
        items: applyItemsPatch(state.items, msg.items),
        busy: msg.busy,
        liveUsage: msg.liveUsage,
        conversation: msg.conversation,
        pendingApprovals: msg.busy ? state.pendingApprovals : [],
        pendingElicitations: msg.pendingElicitations,
      };
    case 'turnStarted':
      return {
        ...state,
        busy: true,
        liveUsage: EMPTY_USAGE,
        items: msg.user ? [...state.items, msg.user] : state.items,
      };
    case 'textDelta': {
      const last = state.items[state.items.length - 1];
      if (last && last.kind === 'assistant' && last.id === msg.itemId) {
        const items = state.items.slice();
        items[items.length - 1] = { ...last, markdown: last.markdown + msg.text };
        return { ...state, items };
      }
      if (state.items.some((it) => it.id === msg.itemId)) {
        return {
          ...state,
          items: replaceItem(state.items, msg.itemId, (it) => (it.kind === 'assistant' ? { ...it, markdown: it.markdown + msg.text } : it)),
        };
      }
      return { ...state, items: [...state.items, { kind: 'assistant', id: msg.itemId, markdown: msg.text }] };
    }
    case 'thinkingDelta': {
      // No text (a display that omits thinking) adds nothing: an empty section would say nothing.
      if (msg.text === '') return state;
      if (state.items.some((it) => it.id === msg.itemId)) {
        return {
          ...state,
          items: replaceItem(state.items, msg.itemId, (it) => (it.kind === 'thinking' ? { ...it, text: it.text + msg.text } : it)),
        };
      }
      return { ...state, items: [...state.items, { kind: 'thinking', id: msg.itemId, text: msg.text, redacted: false }] };
    }
    case 'toolCallStarted': {
      if (state.items.some((it) => it.id === msg.callId)) return state;
      const item: HistoryItem =
        msg.card === 'search'
          ? { kind: 'search', id: msg.callId, input: msg.input, outcome: { status: 'running' } }
          : { kind: 'tool_call', id: msg.callId, name: msg.name, input: msg.input, outcome: { status: 'running' } };
      return { ...state, items: [...state.items, item] };
    }
    case 'toolCallFinished':
      return {
        ...state,
        items: replaceItem(state.items, msg.callId, (it) => (it.kind === 'tool_call' ? { ...it, outcome: msg.outcome } : it)),
      };
    case 'searchFinished':
      return {
        ...state,
        items: replaceItem(state.items, msg.callId, (it) => (it.kind === 'search' ? { ...it, outcome: msg.outcome } : it)),
      };
    case 'approvalRequest':
      if (state.pendingApprovals.some((a) => a.callId === msg.request.callId)) return state;
      return { ...state, pendingApprovals: [...state.pendingApprovals, msg.request] };
    case 'approvalSettled':
      return { ...state, pendingApprovals: state.pendingApprovals.filter((a) => a.callId !== msg.callId) };
    case 'elicitationRequest':
      if (state.pendingElicitations.some((p) => p.promptId === msg.prompt.promptId)) return state;
      return { ...state, pendingElicitations: [...state.pendingElicitations, msg.prompt] };
    case 'elicitationSettled':
      return { ...state, pendingElicitations: state.pendingElicitations.filter((p) => p.promptId !== msg.promptId) };
    case 'toolProgress':
      return {
        ...state,
        items: replaceItem(state.items, msg.callId, (it) => (it.kind === 'tool_call' && it.outcome.status === 'running' ? { ...it, outcome: { status: 'running', progress: msg.progress } } : it)),
      };
    case 'usage':
      return { ...state, liveUsage: msg.usage };
    case 'turnFinished':
      return {
        ...state,
        busy: false,
        liveUsage: null,
        pendingApprovals: [],
        pendingElicitations: [],
        items: [...cancelRunning(state.items), msg.summary],
      };
    case 'banner':
      return state;
    case 'conversations':
      return { ...state, conversations: msg.list, conversation: msg.current };
    case 'toolCompletions':
      return { ...state, toolCompletions: msg.tools };
    case 'attachments':
      return { ...state, attachments: msg.list };
    case 'focusComposer':
    case 'fileCompletions':
    case 'restoreDraft':
      return state;
  }
}
