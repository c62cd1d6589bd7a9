import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { toolResultContentSchema } from '../stream/eventSchema';
import type { ToolResultContent } from '../tools/toolSource';
import { isResultRef } from './resultRefs';

/** A result as kept: the whole of what the tool returned, and which tool. */
export interface StoredResult {
  readonly name: string;
  readonly content: readonly ToolResultContent[];
}

/** The whole tool results of one conversation, by ref. */
export interface ResultStore {
  put(ref: string, result: StoredResult): Promise<void>;
  /** The result kept under `ref`, or undefined when there is none. */
  get(ref: string): Promise<StoredResult | undefined>;
}

const storedSchema = z.object({ name: z.string(), content: z.array(toolResultContentSchema) });

/**
 * One JSON file a result, `<ref>.json`, in a folder of the conversation's own beside its stream
 * (ConversationStore.resultsOf), so results survive a reload and go when the conversation does.
 */
export class FileResultStore implements ResultStore {
  constructor(private readonly folder: string) {}

  async put(ref: string, result: StoredResult): Promise<void> {
    const file = this.fileOf(ref);
    await mkdir(this.folder, { recursive: true });
    // Written aside and renamed over: a reader (the editor, read_result) never sees half a file.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, JSON.stringify(result), 'utf8');
    await rename(partial, file);
  }

  async get(ref: string): Promise<StoredResult | undefined> {
    if (!isResultRef(ref)) return undefined;
    let text: string;
    try {
      text = await readFile(this.fileOf(ref), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    const parsed = storedSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`the kept result ${ref} is damaged: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return parsed.data;
  }

  private fileOf(ref: string): string {
    if (!isResultRef(ref)) throw new Error(`"${ref}" is not a result reference.`);
    return join(this.folder, `${ref}.json`);
  }
}
