import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Conversation, conversationTitle } from './conversation';
import { eventsOfTypes, parseStreamText, type LoadIssue } from './jsonLines';

export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  /** Last write, from the file's modification time. */
  readonly updated: Date;
}

export interface OpenedConversation {
  readonly conversation: Conversation;
  /** Lines that did not load (a torn last line, invalid events); empty when all loaded. */
  readonly issues: readonly LoadIssue[];
}

const EXTENSION = '.jsonl';
const ID = /^c-[a-z0-9]+-[a-f0-9]{8}$/;

/**
 * Conversations as append-only JSON-lines files, one per conversation, in a folder the
 * caller owns (the extension passes its global storage folder).
 */
export class ConversationStore {
  /** Titles by conversation, valid while the file's size and modification and change times are unchanged. */
  private readonly titles = new Map<string, { readonly stamp: string; readonly title: string }>();

  constructor(private readonly folder: string) {}

  async create(): Promise<Conversation> {
    await mkdir(this.folder, { recursive: true });
    const id = `c-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const file = this.fileOf(id);
    await writeFile(file, '', { flag: 'wx' });
    return new Conversation(id, file, []);
  }

  async open(id: string): Promise<OpenedConversation> {
    const file = this.fileOf(id);
    const parsed = parseStreamText(await readFile(file, 'utf8'));
    const torn = parsed.validBytes < (await stat(file)).size;
    const repair = { newline: parsed.needsNewline, ...(torn ? { truncateTo: parsed.validBytes } : {}) };
    return { conversation: new Conversation(id, file, parsed.events, repair), issues: parsed.issues };
  }

  /**
   * Newest first; unreadable files are left out. A file is read for its title only when it
   * changed since the last listing, and then only its messages and renames are parsed.
   */
  async list(): Promise<ConversationSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch {
      return [];
    }
    const ids = names.filter((n) => n.endsWith(EXTENSION)).map((n) => n.slice(0, -EXTENSION.length)).filter((id) => ID.test(id));
    // Another window may have deleted conversations: forget their titles.
    const present = new Set(ids);
    for (const id of this.titles.keys()) if (!present.has(id)) this.titles.delete(id);
    const summaries = await Promise.all(ids.map((id) => this.summary(id)));
    return summaries.filter((s): s is ConversationSummary => s !== undefined).sort((a, b) => b.updated.getTime() - a.updated.getTime());
  }

  async rename(id: string, title: string): Promise<void> {
    const trimmed = title.trim();
    if (trimmed.length === 0) throw new Error('A conversation title cannot be empty.');
    const { conversation } = await this.open(id);
    await conversation.append({ type: 'renamed', title: trimmed, at: new Date().toISOString() });
  }

  async delete(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
    this.titles.delete(id);
  }

  private async summary(id: string): Promise<ConversationSummary | undefined> {
    const file = this.fileOf(id);
    try {
      const info = await stat(file);
      // ctime too: a repair that truncates and rewrites as many bytes within one coarse mtime tick still moves it.
      const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
      const known = this.titles.get(id);
      if (known !== undefined && known.stamp === stamp) return { id, title: known.title, updated: info.mtime };
      const title = conversationTitle(eventsOfTypes(await readFile(file), ['user_message', 'renamed']));
      this.titles.set(id, { stamp, title });
      return { id, title, updated: info.mtime };
    } catch {
      this.titles.delete(id);
      return undefined;
    }
  }

  private fileOf(id: string): string {
    if (!ID.test(id)) throw new Error(`"${id}" is not a conversation id.`);
    return join(this.folder, `${id}${EXTENSION}`);
  }
}
