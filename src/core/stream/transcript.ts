import { undoneText } from '../edits/checkpoints';
import type { ChatMessage, SystemChange, UserBlock } from '../models/model';
import type { AssistantBlock, StreamEvent } from './events';
import { failedMessages } from './failedMessages';

type Item =
  | { readonly role: 'assistant'; readonly blocks: readonly AssistantBlock[] }
  | { readonly role: 'user'; readonly blocks: readonly UserBlock[] }
  | SystemChange;

export const INTERRUPTED_RESULT = 'The tool call was interrupted before it returned a result (Quiver stopped or the conversation was cut short).';

/**
 * Applies a restart: drops the latest assistant message and what came after it, unless the user
 * spoke since. Appended system changes stay: what they changed is still in force.
 */
function withdrawLastReply(items: Item[]): void {
  let lastAssistant = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.role === 'assistant') {
      lastAssistant = i;
      break;
    }
    if (item?.role === 'user' && item.blocks.some((b) => b.type === 'text')) return;
  }
  if (lastAssistant < 0) return;
  const kept = items.slice(lastAssistant).filter((item) => item.role === 'system');
  items.splice(lastAssistant, items.length - lastAssistant, ...kept);
}

/** Attachments come before the words that ask about them, one text block each, as recorded. */
function userBlocks(e: Extract<StreamEvent, { type: 'user_message' }>): UserBlock[] {
  return [...(e.attachments ?? []).map((a): UserBlock => ({ type: 'text', text: a.text })), { type: 'text', text: e.text }];
}

function itemsOf(events: readonly StreamEvent[]): Item[] {
  const items: Item[] = [];
  const failed = failedMessages(events);
  for (const [i, e] of events.entries()) {
    if (e.type === 'user_message') {
      if (!failed.has(i)) items.push({ role: 'user', blocks: userBlocks(e) });
    } else if (e.type === 'assistant_message') items.push({ role: 'assistant', blocks: e.content });
    else if (e.type === 'tool_result') items.push({ role: 'user', blocks: [{ type: 'tool_result', toolUseId: e.toolUseId, content: e.content, isError: e.isError }] });
    else if (e.type === 'wire_change') items.push({ role: 'system', text: e.text, added: e.added, removed: e.removed });
    else if (e.type === 'restart') withdrawLastReply(items);
    else if (e.type === 'changes_undone') items.push({ role: 'user', blocks: [{ type: 'text', text: undoneText(e) }] });
  }
  return items;
}

function mergeChanges(changes: readonly SystemChange[]): SystemChange {
  return {
    role: 'system',
    text: changes.map((c) => c.text).filter((t) => t.trim() !== '').join('\n\n'),
    added: changes.flatMap((c) => c.added),
    removed: changes.flatMap((c) => c.removed),
  };
}

/**
 * Consecutive items of one role become one message; empty assistant messages are dropped.
 * System changes wait for the next reply and go right before it, merged into one message:
 * the API takes a system message only after a user message and never right before one, and
 * a change recorded before a user message that came later (a cancelled turn, a refused
 * message) was never answered in its first place, so moving it changes nothing the model saw.
 */
function group(items: readonly Item[]): { readonly messages: ChatMessage[]; readonly trailing: readonly SystemChange[] } {
  const messages: ChatMessage[] = [];
  let pending: SystemChange[] = [];
  for (const item of items) {
    if (item.role === 'system') {
      pending.push(item);
      continue;
    }
    if (item.blocks.length === 0) continue;
    const last = messages.at(-1);
    if (item.role === 'assistant' && pending.length > 0 && last?.role === 'user') {
      messages.push(mergeChanges(pending));
      pending = [];
    }
    const tail = messages.at(-1);
    if (tail?.role === 'user' && item.role === 'user') {
      messages[messages.length - 1] = { role: 'user', content: [...tail.content, ...item.blocks] };
    } else if (tail?.role === 'assistant' && item.role === 'assistant') {
      messages[messages.length - 1] = { role: 'assistant', content: [...tail.content, ...item.blocks] };
    } else {
      messages.push(item.role === 'user' ? { role: 'user', content: item.blocks } : { role: 'assistant', content: item.blocks });
    }
  }
  return { messages, trailing: pending };
}

/**
 * Pairs every tool_use with exactly one tool_result in the next user message (results first,
 * as the API requires): a missing result, from a crash mid-cycle, becomes an error result;
 * a result without its tool_use (its reply was withdrawn) is dropped.
 */
function pairToolResults(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!message) continue;
    if (message.role !== 'user') {
      out.push(message);
      continue;
    }
    const previous = messages[i - 1];
    const ids = previous?.role === 'assistant' ? previous.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
    const results = new Map<string, UserBlock>();
    for (const b of message.content) if (b.type === 'tool_result' && ids.includes(b.toolUseId) && !results.has(b.toolUseId)) results.set(b.toolUseId, b);
    const paired: UserBlock[] = ids.map((id) => results.get(id) ?? { type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: INTERRUPTED_RESULT }], isError: true });
    const rest = message.content.filter((b) => b.type !== 'tool_result');
    if (paired.length + rest.length > 0) out.push({ role: 'user', content: [...paired, ...rest] });
  }
  const last = out.at(-1);
  if (last?.role === 'assistant') {
    const dangling = last.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (dangling.length > 0) out.push({ role: 'user', content: dangling.map((id) => ({ type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: INTERRUPTED_RESULT }], isError: true })) });
  }
  return out;
}

/** The messages to send, rebuilt from the stream alone; a message the API refused is left out (failedMessages.ts). */
export function transcriptOf(events: readonly StreamEvent[]): ChatMessage[] {
  const { messages, trailing } = group(itemsOf(events));
  const paired = pairToolResults(messages);
  return trailing.length > 0 && paired.at(-1)?.role === 'user' ? [...paired, mergeChanges(trailing)] : paired;
}
