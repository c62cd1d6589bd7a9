import type { StreamEvent } from './stream/events';

/** One request of a conversation as its reply reported it: what the prompt cache read and wrote, and why it missed. */
export interface RequestUsage {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** Share of the prompt read from cache, 0–1. */
  readonly readShare: number;
  /** The tool changes appended just before this request (what changed what the model is offered). */
  readonly changes: readonly string[];
  readonly cacheMiss: string | undefined;
}

function describeChange(e: Extract<StreamEvent, { type: 'wire_change' }>): string {
  const parts = [...e.added.map((n) => `+${n}`), ...e.removed.map((n) => `−${n}`)];
  return `${e.cause}${parts.length > 0 ? ` ${parts.join(' ')}` : ''}`;
}

/** Every answered request of the stream, in order, from its usage event and the changes appended before it. */
export function requestUsageOf(events: readonly StreamEvent[]): RequestUsage[] {
  const requests: RequestUsage[] = [];
  let changes: string[] = [];
  for (const e of events) {
    if (e.type === 'wire_change') changes.push(describeChange(e));
    if (e.type !== 'usage') continue;
    const prompt = e.inputTokens + e.cacheReadTokens + e.cacheWriteTokens;
    requests.push({ input: e.inputTokens, cacheRead: e.cacheReadTokens, cacheWrite: e.cacheWriteTokens, readShare: prompt > 0 ? e.cacheReadTokens / prompt : 0, changes, cacheMiss: e.cacheMiss });
    changes = [];
  }
  return requests;
}
