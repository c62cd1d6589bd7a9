import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Conversation, conversationTitle } from './conversation';
import { FileResultStore } from '../results/resultStore';
import { eventsOfTypes, parseStreamText, type LoadIssue } from './jsonLines';
import { lastActivity } from './lastActivity';

export interface ConversationSummary {
  readonly id: string;
  readonly title: string;
  /** Last activity: the time of its last event other than a rename (else the file's modification time). */
  readonly updated: Date;
}

export interface OpenedConversation {
  readonly conversation: Conversation;
  /** Lines that did not load (a torn last line, invalid events); empty when all loaded. */
  readonly issues: readonly LoadIssue[];
}

const EXTENSION = '.jsonl';
/** A conversation's kept results live in a folder named after it (never listed: only `.jsonl` files are). */
const RESULTS = '.results';
const ID = /^c-[a-z0-9]+-[a-f0-9]{8}$/;

/**
 * Conversations as append-only JSON-lines files, one per conversation, in a folder the
 * caller owns (the extension passes its global storage folder).
 */
export class ConversationStore {
  /** Titles and last activity by conversation, valid while the file's size and modification and change times are unchanged. */
  private readonly titles = new Map<string, { readonly stamp: string; readonly title: string; readonly updated: Date }>();

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
   * Most recently active first (a rename is not activity); unreadable files are left out. A file
   * is read for its title only when it changed since the last listing, and then only its
   * messages and renames are parsed, and its last lines for when it was last active.
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
    // Ties (events recorded in the same millisecond) go by id, which begins with the creation time: newer first.
    return summaries.filter((s): s is ConversationSummary => s !== undefined).sort((a, b) => b.updated.getTime() - a.updated.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async rename(id: string, title: string): Promise<void> {
    const trimmed = title.trim();
    if (trimmed.length === 0) throw new Error('A conversation title cannot be empty.');
    const { conversation } = await this.open(id);
    await conversation.append({ type: 'renamed', title: trimmed, at: new Date().toISOString() });
  }

  /** Where the conversation's shortened tool results are kept whole, beside its stream. */
  resultsOf(id: string): FileResultStore {
    return new FileResultStore(this.resultsFolderOf(id));
  }

  async delete(id: string): Promise<void> {
    await rm(this.fileOf(id), { force: true });
    await rm(this.resultsFolderOf(id), { recursive: true, force: true });
    this.titles.delete(id);
  }

  private async summary(id: string): Promise<ConversationSummary | undefined> {
    const file = this.fileOf(id);
    try {
      const info = await stat(file);
      // ctime too: a repair that truncates and rewrites as many bytes within one coarse mtime tick still moves it.
      const stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}`;
      const known = this.titles.get(id);
      if (known !== undefined && known.stamp === stamp) return { id, title: known.title, updated: known.updated };
      const bytes = await readFile(file);
      const title = conversationTitle(eventsOfTypes(bytes, ['user_message', 'renamed']));
      const updated = lastActivity(bytes) ?? info.mtime;
      this.titles.set(id, { stamp, title, updated });
      return { id, title, updated };
    } catch {
      this.titles.delete(id);
      return undefined;
    }
  }

  private fileOf(id: string): string {
    return join(this.folder, `${checkedId(id)}${EXTENSION}`);
  }

  private resultsFolderOf(id: string): string {
    return join(this.folder, `${checkedId(id)}${RESULTS}`);
  }
}

function checkedId(id: string): string {
  if (!ID.test(id)) throw new Error(`"${id}" is not a conversation id.`);
  return id;
}
