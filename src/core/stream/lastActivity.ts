import type { StreamEventType } from './events';

/**
 * Events that are not activity: renaming a chat changes what the list calls it, not when it was
 * last used, so a rename must not move it to the top of the history.
 */
const NOT_ACTIVITY: readonly StreamEventType[] = ['renamed'];

const NEWLINE = 10;
/** `serializeEvent` writes `type` first and `at` last (as the events are built), so most lines are read without parsing. */
const TYPE_AT_START = /^\{"type":"([a-z_]+)"/;
const AT_AT_END = /"at":"([^"]+)"\}\s*$/;

function atOfLine(line: string): { readonly type: string; readonly at: string } | undefined {
  const type = TYPE_AT_START.exec(line)?.[1];
  const at = AT_AT_END.exec(line)?.[1];
  if (type !== undefined && at !== undefined) return { type, at };
  // Written some other way: parse it (rare, and only for the last lines of a file).
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const t: unknown = 'type' in value ? value.type : undefined;
    const a: unknown = 'at' in value ? value.at : undefined;
    return typeof t === 'string' && typeof a === 'string' ? { type: t, at: a } : undefined;
  } catch {
    return undefined; // a torn last line
  }
}

/**
 * When a conversation file was last active: the `at` of its last event that is activity (not a
 * rename), read from the end of the file so a long conversation costs one or two lines. Undefined
 * when no line says (an empty file, or only renames): the caller falls back to the file's time.
 */
export function lastActivity(file: Buffer): Date | undefined {
  let end = file.length;
  while (end > 0) {
    const start = file.lastIndexOf(NEWLINE, end - 1) + 1;
    const line = file.toString('utf8', start, end).trim();
    end = start - 1;
    if (line === '') continue;
    const event = atOfLine(line);
    if (event === undefined || (NOT_ACTIVITY as readonly string[]).includes(event.type)) continue;
    const when = new Date(event.at);
    if (!Number.isNaN(when.getTime())) return when;
  }
  return undefined;
}
