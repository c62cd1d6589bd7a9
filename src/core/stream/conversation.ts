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

/** The latest rename, else the first user message cut to one line, else a placeholder. */
export function conversationTitle(events: readonly StreamEvent[]): string {
  let title: string | undefined;
  for (const e of events) {
    if (e.type === 'renamed') title = e.title;
    else if (e.type === 'user_message' && title === undefined) title = firstLine(e.text);
  }
  return title && title.length > 0 ? title : 'New chat';
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
