import { appendFile, truncate } from 'node:fs/promises';
import type { StreamEvent } from './events';
import { serializeEvent } from './jsonLines';

/** What a file needs before the next append, as found when it was loaded. */
export interface TailRepair {
  /** Cut the file back to this many bytes (a torn last line). */
  readonly truncateTo?: number;
  /** Write a newline first (the last line is complete but unterminated). */
  readonly newline: boolean;
}

/**
 * One conversation's stream: its events in memory and its JSON-lines file on disk. Appends go
 * to the end of the file (never a rewrite) one at a time, in call order.
 */
export class Conversation {
  private readonly loaded: StreamEvent[];
  private queue: Promise<void> = Promise.resolve();
  private repair: TailRepair | undefined;

  constructor(
    readonly id: string,
    readonly file: string,
    events: readonly StreamEvent[],
    repair?: TailRepair,
  ) {
    this.loaded = [...events];
    this.repair = repair;
  }

  events(): readonly StreamEvent[] {
    return this.loaded;
  }

  /** Adds events in memory at once and on disk in order; resolves when they are written. */
  append(...events: StreamEvent[]): Promise<void> {
    if (events.length === 0) return this.queue;
    this.loaded.push(...events);
    const text = events.map(serializeEvent).join('');
    const write = this.queue.then(() => this.write(text));
    // Keep the chain alive after a failed write so later appends still run; the caller of
    // this append sees the failure through `write`.
    this.queue = write.catch(() => undefined);
    return write;
  }

  title(): string {
    return conversationTitle(this.loaded);
  }

  private async write(text: string): Promise<void> {
    const repair = this.repair;
    this.repair = undefined;
    if (repair?.truncateTo !== undefined) await truncate(this.file, repair.truncateTo);
    await appendFile(this.file, repair?.newline ? `\n${text}` : text, 'utf8');
  }
}

const TITLE_CHARS = 60;
const DEFAULT_TITLE = 'New chat';

/** The latest non-blank rename, else the first user message flattened to one short line. */
export function conversationTitle(events: readonly StreamEvent[]): string {
  let first: string | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as StreamEvent;
    if (e.type === 'renamed' && e.title.trim() !== '') return e.title.trim();
    if (e.type === 'user_message') first = e.text;
  }
  const line = (first ?? '').replace(/\s+/g, ' ').trim();
  if (line === '') return DEFAULT_TITLE;
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
