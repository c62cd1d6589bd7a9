import type { StreamEvent } from './events';
import { streamEventSchema } from './eventSchema';

/** A line that did not load, phrased for the person reading the log or the chat notice. */
export interface LoadIssue {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly message: string;
}

export interface ParsedStream {
  readonly events: StreamEvent[];
  readonly issues: LoadIssue[];
  /**
   * Bytes of the file that hold complete lines. Shorter than the file when the last line was
   * torn (the process stopped mid-write): the next append cuts the file back to this length.
   */
  readonly validBytes: number;
  /** The file's last line is complete but has no trailing newline; the next append adds one first. */
  readonly needsNewline: boolean;
}

function describeLine(raw: string, line: number): { event?: StreamEvent; issue?: LoadIssue } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { issue: { line, message: `line ${line} is not JSON and was skipped.` } };
  }
  const parsed = streamEventSchema.safeParse(value);
  if (parsed.success) return { event: parsed.data };
  const type = typeof value === 'object' && value !== null && 'type' in value ? String(value.type) : 'unknown';
  const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ');
  return { issue: { line, message: `line ${line} (event "${type}") is not a valid event and was skipped: ${why}.` } };
}

/**
 * Parses a conversation file. Every line is validated on its own: an invalid line is reported
 * and skipped, the rest load. A last line without its newline that does not parse is a torn
 * write: it is reported and left out of `validBytes`.
 */
export function parseStreamText(text: string): ParsedStream {
  const events: StreamEvent[] = [];
  const issues: LoadIssue[] = [];
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  let offset = 0;
  lines.forEach((raw, i) => {
    offset += Buffer.byteLength(raw, 'utf8') + 1;
    if (raw.trim() === '') return;
    const { event, issue } = describeLine(raw, i + 1);
    if (event) events.push(event);
    if (issue) issues.push(issue);
  });
  if (tail.trim() === '') return { events, issues, validBytes: offset + Buffer.byteLength(tail, 'utf8'), needsNewline: false };
  const last = describeLine(tail, lines.length + 1);
  if (last.event) {
    events.push(last.event);
    return { events, issues, validBytes: offset + Buffer.byteLength(tail, 'utf8'), needsNewline: true };
  }
  const bytes = Buffer.byteLength(tail, 'utf8');
  issues.push({
    line: lines.length + 1,
    message: `the last line (${bytes} bytes) was cut short, most likely because Quiver stopped while writing it; it was dropped and everything before it loaded.`,
  });
  return { events, issues, validBytes: offset, needsNewline: false };
}

/**
 * The valid events of the given types in a conversation file, in order; every other line is
 * left undecoded. A line can only be one of `types` if it spells one of their names, so a
 * byte search finds the few lines worth parsing in a file that is mostly tool results.
 */
export function eventsOfTypes<T extends StreamEvent['type']>(file: Buffer, types: readonly T[]): Extract<StreamEvent, { type: T }>[] {
  const starts = new Set<number>();
  for (const type of types) {
    const needle = `"${type}"`;
    for (let at = file.indexOf(needle); at >= 0; at = file.indexOf(needle, at + needle.length)) {
      starts.add(file.lastIndexOf(10, at) + 1);
    }
  }
  const out: Extract<StreamEvent, { type: T }>[] = [];
  for (const start of [...starts].sort((a, b) => a - b)) {
    const end = file.indexOf(10, start);
    const { event } = describeLine(file.toString('utf8', start, end < 0 ? file.length : end), 0);
    if (event && (types as readonly string[]).includes(event.type)) out.push(event as Extract<StreamEvent, { type: T }>);
  }
  return out;
}

export function serializeEvent(event: StreamEvent): string {
  return `${JSON.stringify(event)}\n`;
}
