import { chipOf } from './attachments/attachment';
import { filesTouched, summarizeChange, undoneCalls, type FileChange } from './edits';
import { addUsage, EMPTY_USAGE, type FoundTool, type HistoryItem, type OutputPart, type TurnChanges, type ThinkingItem, type TokenUsage, type ToolOutcome } from './chatItems';
import { searchDone, settleSearchCards } from './searchCard';
import type { AssistantBlock, StreamEvent } from './stream/events';
import { MISSING_KEY_CAUSE } from './model';
import { droppedMessages, failedMessages } from './stream/failedMessages';
import type { ToolResultContent } from './toolSource';
import { SEARCH_TOOLS_NAME } from './tools';


export interface ChatHistory {
  readonly items: readonly HistoryItem[];
  /** Usage so far of a turn still running (only when `turnRunning`), else null. */
  readonly liveUsage: TokenUsage | null;
}

/**
 * The id of the item made from event `eventIndex` (and block `block` of an assistant
 * message). Tool calls use their tool_use id instead, which the live messages share.
 */
export function itemIdForEvent(eventIndex: number, block?: number): string {
  return block === undefined ? `e${eventIndex}` : `e${eventIndex}.${block}`;
}

/** The stream position an item id of `itemIdForEvent` names, or undefined for any other id. */
export function eventIndexOfItem(itemId: string): number | undefined {
  const match = /^e(\d+)$/.exec(itemId);
  return match ? Number(match[1]) : undefined;
}

function outputParts(content: readonly ToolResultContent[]): OutputPart[] {
  return content.map((c): OutputPart => (c.type === 'text' ? { kind: 'text', text: c.text } : { kind: 'image', mimeType: c.mimeType, data: c.data }));
}

function toolOutcome(e: Extract<StreamEvent, { type: 'tool_result' }>): ToolOutcome {
  if (e.notRun === 'cancelled') return { status: 'cancelled' };
  const output = outputParts(e.content);
  if (e.stopped === true) return { status: 'stopped', output };
  if (e.notRun !== undefined) return { status: e.notRun, output };
  const kept = e.kept === undefined ? {} : { kept: { ref: e.kept.ref, shownChars: e.kept.shownChars, totalChars: e.kept.totalChars } };
  const changes = e.changes === undefined || e.changes.length === 0 ? {} : { changes: e.changes.map(summarizeChange) };
  return e.isError ? { status: 'error', output, ...kept } : { status: 'done', output, ...kept, ...changes };
}

interface Slot {
  item: HistoryItem;
}

type ThinkingBlock = Extract<AssistantBlock, { type: 'thinking' | 'redacted_thinking' }>;
type GatheredBlock = Exclude<AssistantBlock, ThinkingBlock> | { readonly type: 'thinking_run'; readonly blocks: readonly ThinkingBlock[] };

/**
 * A reply's blocks with each run of thinking and redacted thinking blocks gathered into one, so
 * the chat shows one "Thinking" section where the model thought; `k` is the position of the
 * block each part began at (its item id).
 */
function gatherThinking(content: readonly AssistantBlock[]): { readonly k: number; readonly block: GatheredBlock }[] {
  const parts: { k: number; block: GatheredBlock }[] = [];
  let run: ThinkingBlock[] | null = null;
  content.forEach((block, k) => {
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      run = null;
      parts.push({ k, block });
    } else if (run) {
      run.push(block);
    } else {
      run = [block];
      parts.push({ k, block: { type: 'thinking_run', blocks: run } });
    }
  });
  return parts;
}

/**
 * The section a run of thinking blocks shows, or null when it has nothing to show: thinking with
 * no text (the display omitted it) says nothing, redacted thinking only that it was redacted.
 */
function thinkingItem(blocks: readonly ThinkingBlock[], id: string): ThinkingItem | null {
  const text = blocks.flatMap((b) => (b.type === 'thinking' && b.thinking.trim() !== '' ? [b.thinking] : [])).join('\n\n');
  const redacted = blocks.some((b) => b.type === 'redacted_thinking');
  return text === '' && !redacted ? null : { kind: 'thinking', id, text, redacted };
}

/** A turn summary's list of changed files; undone once every call that changed them was undone. */
function turnChanges(calls: readonly { readonly toolUseId: string; readonly changes: readonly FileChange[] }[], undone: ReadonlySet<string>): TurnChanges | null {
  if (calls.length === 0) return null;
  return { files: filesTouched(calls.flatMap((c) => c.changes)), undone: calls.every((c) => undone.has(c.toolUseId)) };
}

/** A user message's status, and for one that was not sent, why (see failedMessages). */
function failedStatus(failed: ReadonlyMap<number, string | undefined>, index: number): { readonly status: 'sent' | 'failed'; readonly cause?: string } {
  if (!failed.has(index)) return { status: 'sent' };
  const cause = failed.get(index);
  return cause === undefined ? { status: 'failed' } : { status: 'failed', cause };
}

/**
 * Maps a conversation's stream to the items the chat renders.
 *
 * Promotion attribution: a `promotion` delta names the tools a search_tools call promoted. It is
 * credited to the latest search result since the last assistant message that found the tool as
 * usable (its row turns from `already on` to `loaded`); a delta recorded before its search result
 * waits for the next one. The turn loop may record either order. Loaded rows are then settled
 * against the stream's end (searchCard.ts): unloaded since, and what each costs a request.
 *
 * `turnRunning` says whether the stream's last turn is live. When it is not, an unterminated
 * turn (the window closed mid-turn) has its running calls shown as cancelled.
 */
export function historyFromStream(events: readonly StreamEvent[], turnRunning: boolean): ChatHistory {
  const slots: Slot[] = [];
  let turnUsage: TokenUsage | null = null;
  let turnModel: string | null = null;
  let inTurn = false;
  /** Slots before this index are never withdrawn by a restart (user messages, earlier restarts). */
  let floor = 0;
  /** Where each assistant message's items begin, so a restart knows what to withdraw. */
  const assistantStarts: number[] = [];
  let openSearches: number[] = [];
  let pendingPromotions = new Set<string>();
  const failed = failedMessages(events);
  const dropped = droppedMessages(events);
  /** The current turn's message was dropped: its summary (the refusal) goes with it. */
  let turnDropped = false;
  const undone = undoneCalls(events);
  /** The file changes of the current turn's calls, for its summary. */
  let turnFileChanges: { readonly toolUseId: string; readonly changes: readonly FileChange[] }[] = [];

  const findCall = (callId: string): number => {
    for (let i = slots.length - 1; i >= 0; i--) if ((slots[i] as Slot).item.id === callId) return i;
    return -1;
  };
  const uniqueCallId = (callId: string, eventIndex: number): string => (findCall(callId) < 0 ? callId : `${callId}#${eventIndex}`);

  const markPromoted = (slotIndex: number, names: ReadonlySet<string>): boolean => {
    const slot = slots[slotIndex] as Slot;
    const item = slot.item;
    if (item.kind !== 'search' || item.outcome.status !== 'done') return false;
    let hit = false;
    const found = item.outcome.found.map((f): FoundTool => {
      if (names.has(f.name) && f.status === 'already on') {
        hit = true;
        return { ...f, status: 'loaded' };
      }
      return f;
    });
    if (hit) slot.item = { ...item, outcome: { ...item.outcome, found } };
    return hit;
  };

  const cancelRunning = (): void => {
    for (const slot of slots) {
      const it = slot.item;
      if (it.kind === 'tool_call' && it.outcome.status === 'running') slot.item = { ...it, outcome: { status: 'cancelled' } };
      if (it.kind === 'search' && it.outcome.status === 'running') slot.item = { ...it, outcome: { status: 'cancelled' } };
    }
  };

  events.forEach((e, index) => {
    switch (e.type) {
      case 'turn_start':
        inTurn = true;
        turnUsage = null;
        turnModel = null;
        openSearches = [];
        pendingPromotions = new Set();
        turnFileChanges = [];
        break;
      case 'user_message':
        turnDropped = dropped.has(index);
        if (turnDropped) break;
        slots.push({ item: { kind: 'user', id: itemIdForEvent(index), text: e.text, forced: e.forced ?? null, attachments: (e.attachments ?? []).map(chipOf), ...failedStatus(failed, index) } });
        floor = slots.length;
        break;
      case 'assistant_message':
        openSearches = [];
        assistantStarts.push(slots.length);
        for (const part of gatherThinking(e.content)) {
          const block = part.block;
          if (block.type === 'thinking_run') {
            const item = thinkingItem(block.blocks, itemIdForEvent(index, part.k));
            if (item) slots.push({ item });
          } else if (block.type === 'text') {
            if (block.text.trim() !== '') slots.push({ item: { kind: 'assistant', id: itemIdForEvent(index, part.k), markdown: block.text } });
          } else {
            const id = uniqueCallId(block.id, index);
            const item: HistoryItem =
              block.name === SEARCH_TOOLS_NAME
                ? { kind: 'search', id, input: block.input, outcome: { status: 'running' } }
                : { kind: 'tool_call', id, name: block.name, input: block.input, outcome: { status: 'running' } };
            slots.push({ item });
          }
        }
        break;
      case 'tool_result': {
        const at = findCall(e.toolUseId);
        if (at < 0) break;
        const slot = slots[at] as Slot;
        const it = slot.item;
        if (it.kind === 'tool_call') {
          slot.item = { ...it, outcome: toolOutcome(e) };
          if (e.changes !== undefined && e.changes.length > 0) turnFileChanges.push({ toolUseId: e.toolUseId, changes: e.changes });
        } else if (it.kind === 'search') {
          if (e.isError || e.found === undefined) {
            slot.item = { ...it, outcome: e.isError ? { status: 'error', output: outputParts(e.content) } : { status: 'done', found: [] } };
          } else {
            slot.item = { ...it, outcome: searchDone(e) };
            if (pendingPromotions.size > 0) {
              markPromoted(at, pendingPromotions);
              for (const f of e.found) pendingPromotions.delete(f.name);
            }
            openSearches.push(at);
          }
        }
        break;
      }
      case 'config_delta': {
        if (e.source !== 'promotion') break;
        const names = new Set(Object.keys(e.tools));
        for (let i = openSearches.length - 1; i >= 0 && names.size > 0; i--) {
          const at = openSearches[i] as number;
          const item = (slots[at] as Slot).item;
          if (item.kind !== 'search' || item.outcome.status !== 'done') continue;
          const credited = item.outcome.found.filter((f) => f.status === 'already on' && names.has(f.name)).map((f) => f.name);
          if (markPromoted(at, new Set(credited))) for (const n of credited) names.delete(n);
        }
        for (const n of names) pendingPromotions.add(n);
        break;
      }
      case 'usage': {
        const u: TokenUsage = { input: e.inputTokens, output: e.outputTokens, cacheRead: e.cacheReadTokens, cacheWrite: e.cacheWriteTokens };
        turnUsage = addUsage(turnUsage ?? EMPTY_USAGE, u);
        turnModel = e.model;
        break;
      }
      case 'turn_end':
        cancelRunning();
        // A message not sent for want of a key says so itself; the how-to is the chat's key notice, which goes once a key is set.
        if (!turnDropped && e.cause !== MISSING_KEY_CAUSE) slots.push({
          item: { kind: 'turn_summary', id: itemIdForEvent(index), reason: e.reason, message: e.message ?? null, model: turnModel, usage: turnUsage, changes: turnChanges(turnFileChanges, undone) },
        });
        turnFileChanges = [];
        inTurn = false;
        turnDropped = false;
        openSearches = [];
        pendingPromotions = new Set();
        break;
      case 'restart': {
        // Withdraw the latest assistant message and all that followed it; usage already spent
        // stays counted in the turn, and the turn is open again.
        const start = assistantStarts.pop();
        const cut = start !== undefined && start >= floor ? start : floor;
        slots.length = cut;
        floor = cut;
        inTurn = true;
        openSearches = [];
        break;
      }
      case 'renamed':
      case 'message_dropped':
      case 'changes_undone':
        break;
    }
  });

  if (inTurn && !turnRunning) cancelRunning();
  return { items: settleSearchCards(slots.map((s) => s.item), events), liveUsage: inTurn && turnRunning ? (turnUsage ?? EMPTY_USAGE) : null };
}

