import { filesTouched, summarizeChange, type FileChange } from '../edits';
import type { OutputPart, ThinkingItem, ToolOutcome, TurnChanges } from './items';
import type { AssistantBlock, StreamEvent } from '../stream/events';
import type { ToolResultContent } from '../tools/toolSource';

/** How one event's parts become chat items, and the ids they get. */

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

export function outputParts(content: readonly ToolResultContent[]): OutputPart[] {
  return content.map((c): OutputPart => (c.type === 'text' ? { kind: 'text', text: c.text } : { kind: 'image', mimeType: c.mimeType, data: c.data }));
}

export function toolOutcome(e: Extract<StreamEvent, { type: 'tool_result' }>): ToolOutcome {
  if (e.notRun === 'cancelled') return { status: 'cancelled' };
  const output = outputParts(e.content);
  if (e.stopped === true) return { status: 'stopped', output };
  if (e.notRun !== undefined) return { status: e.notRun, output };
  const kept = e.kept === undefined ? {} : { kept: { ref: e.kept.ref, shownChars: e.kept.shownChars, totalChars: e.kept.totalChars } };
  const changes = e.changes === undefined || e.changes.length === 0 ? {} : { changes: e.changes.map(summarizeChange) };
  return e.isError ? { status: 'error', output, ...kept } : { status: 'done', output, ...kept, ...changes };
}

type ThinkingBlock = Extract<AssistantBlock, { type: 'thinking' | 'redacted_thinking' }>;
type GatheredBlock = Exclude<AssistantBlock, ThinkingBlock> | { readonly type: 'thinking_run'; readonly blocks: readonly ThinkingBlock[] };

/**
 * A reply's blocks with each run of thinking and redacted thinking blocks gathered into one, so
 * the chat shows one "Thinking" section where the model thought; `k` is the position of the
 * block each part began at (its item id).
 */
export function gatherThinking(content: readonly AssistantBlock[]): { readonly k: number; readonly block: GatheredBlock }[] {
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
export function thinkingItem(blocks: readonly ThinkingBlock[], id: string): ThinkingItem | null {
  const text = blocks.flatMap((b) => (b.type === 'thinking' && b.thinking.trim() !== '' ? [b.thinking] : [])).join('\n\n');
  const redacted = blocks.some((b) => b.type === 'redacted_thinking');
  return text === '' && !redacted ? null : { kind: 'thinking', id, text, redacted };
}

/** A turn summary's list of changed files; undone once every call that changed them was undone. */
export function turnChanges(calls: readonly { readonly toolUseId: string; readonly changes: readonly FileChange[] }[], undone: ReadonlySet<string>): TurnChanges | null {
  if (calls.length === 0) return null;
  return { files: filesTouched(calls.flatMap((c) => c.changes)), undone: calls.every((c) => undone.has(c.toolUseId)) };
}

/** A user message's status, and for one that was not sent, why (see failedMessages). */
export function failedStatus(failed: ReadonlyMap<number, string | undefined>, index: number): { readonly status: 'sent' | 'failed'; readonly cause?: string } {
  if (!failed.has(index)) return { status: 'sent' };
  const cause = failed.get(index);
  return cause === undefined ? { status: 'failed' } : { status: 'failed', cause };
}
