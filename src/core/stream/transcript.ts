import type { ChatMessage, UserBlock } from '../model';
import type { AssistantBlock, StreamEvent } from './events';
import { failedMessages } from './failedMessages';

type Item = { readonly role: 'assistant'; readonly blocks: readonly AssistantBlock[] } | { readonly role: 'user'; readonly blocks: readonly UserBlock[] };

export const INTERRUPTED_RESULT = 'The tool call was interrupted before it returned a result (Quiver stopped or the conversation was cut short).';

/** Applies a restart: drops the latest assistant message and what came after it, unless the user spoke since. */
function withdrawLastReply(items: Item[]): void {
  let lastAssistant = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.role === 'assistant') {
      lastAssistant = i;
      break;
    }
    if (item?.blocks.some((b) => b.type === 'text')) return;
  }
  if (lastAssistant >= 0) items.splice(lastAssistant);
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
    else if (e.type === 'restart') withdrawLastReply(items);
  }
  return items;
}

/** Consecutive items of one role become one message; empty assistant messages are dropped. */
function group(items: readonly Item[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const item of items) {
    if (item.blocks.length === 0) continue;
    const last = messages.at(-1);
    if (last?.role === item.role) {
      messages[messages.length - 1] = item.role === 'user'
        ? { role: 'user', content: [...(last.content as readonly UserBlock[]), ...item.blocks] }
        : { role: 'assistant', content: [...(last.content as readonly AssistantBlock[]), ...item.blocks] };
    } else {
      messages.push(item.role === 'user' ? { role: 'user', content: item.blocks } : { role: 'assistant', content: item.blocks });
    }
  }
  return messages;
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
    if (message.role === 'assistant') {
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
  return pairToolResults(group(itemsOf(events)));
}
