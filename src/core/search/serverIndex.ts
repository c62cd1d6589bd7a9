import type { ToolDefinition } from '../tools';
import { truncate } from './summary';
import { splitWords, STOP_WORDS } from './tokenize';

export interface ServerIndexEntry {
  readonly server: string;
  /** The server's discoverable tools, counting those this conversation already promoted (so a promotion never changes the text). */
  readonly tools: readonly ToolDefinition[];
}

export interface ServerIndexOptions {
  /** Hard bound on the rendered section, in characters. */
  readonly maxChars?: number;
  /** Topic words shown per server. */
  readonly topics?: number;
}

const SERVER_INDEX_MAX_CHARS = 2_000;
const TOPICS = 6;
const LINE_MAX_CHARS = 160;

// Words that say what a tool does to something rather than what it is about: every server
// has them, so they say nothing about which server to search.
const ACTIONS = new Set([
  'get', 'list', 'create', 'update', 'delete', 'set', 'add', 'remove', 'search', 'find', 'read', 'write',
  'fetch', 'run', 'start', 'stop', 'edit', 'upsert', 'batch', 'retrieve', 'query', 'new', 'put', 'patch',
  'post', 'by', 'id', 'info', 'details', 'detail', 'all', 'multiple', 'specific', 'tool', 'mcp',
]);

const HEADER = [
  '## Discoverable tools',
  'These servers have tools you load by searching. When you need one, call `search_tools` with what the tool should do; the tools it loads become callable.',
];

/** The system-prompt section naming each server with discoverable tools; never longer than maxChars. */
export function renderServerIndex(entries: readonly ServerIndexEntry[], options: ServerIndexOptions = {}): string {
  const maxChars = options.maxChars ?? SERVER_INDEX_MAX_CHARS;
  const present = entries.filter((e) => e.tools.length > 0).sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  if (present.length === 0 || maxChars <= 0) return '';
  const lines = [...HEADER];
  let length = lines.join('\n').length;
  for (let i = 0; i < present.length; i++) {
    const entry = present[i] as ServerIndexEntry;
    const line = serverLine(entry, options.topics ?? TOPICS);
    const rest = present.slice(i + 1);
    const trailer = rest.length > 0 ? moreLine(rest) : '';
    // Keep room for the "and N more" line unless this is the last server.
    if (length + 1 + line.length + (trailer ? 1 + trailer.length : 0) > maxChars) {
      lines.push(moreLine(present.slice(i)));
      break;
    }
    lines.push(line);
    length += 1 + line.length;
  }
  const text = lines.join('\n');
  return text.length <= maxChars ? text : truncate(text, maxChars);
}

function serverLine(entry: ServerIndexEntry, topics: number): string {
  const n = entry.tools.length;
  const words = topicWords(entry.tools, topics);
  const about = words.length > 0 ? `: ${words.join(', ')}` : '';
  return truncate(`- ${entry.server} (${n} ${n === 1 ? 'tool' : 'tools'})${about}`, LINE_MAX_CHARS);
}

function moreLine(rest: readonly ServerIndexEntry[]): string {
  const tools = rest.reduce((sum, e) => sum + e.tools.length, 0);
  return `- …and ${rest.length} more ${rest.length === 1 ? 'server' : 'servers'} (${tools} tools)`;
}

/** The most frequent subject words in the server's tool names, most frequent first. */
export function topicWords(tools: readonly ToolDefinition[], count: number): string[] {
  const server = new Set(tools.flatMap((t) => (t.server ? splitWords(t.server) : [])));
  const freq = new Map<string, number>();
  for (const tool of tools) {
    const seen = new Set<string>();
    for (const word of splitWords(tool.toolName)) {
      if (word.length < 3 || /^[0-9]+$/.test(word) || STOP_WORDS.has(word) || ACTIONS.has(word) || server.has(word)) continue;
      // Singular and plural are one topic: count under the singular.
      const key = word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
      if (seen.has(key)) continue;
      seen.add(key);
      freq.set(key, (freq.get(key) ?? 0) + 1);
    }
  }
  return [...freq].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([w]) => w);
}
