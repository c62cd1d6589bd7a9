import type { ToolDefinition } from '../tools/definitions';
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

const SIGN_IN_HEADER = [
  '## Servers waiting for sign-in',
  'Their tools cannot be searched for, loaded or called until the user signs in. When a task needs one, tell the user to sign in: in the Tools view, click the server\'s "Sign in required" row, or run the command "Quiver: Sign In to MCP Server…".',
];

/**
 * The system-prompt section naming each server that waits for sign-in, with what its last
 * listing held (the same words as the discoverable index) or that its tools are not known yet;
 * '' when none waits. Never longer than the discoverable index's bound.
 */
export function renderSignInIndex(waiting: readonly { readonly server: string; readonly tools: readonly ToolDefinition[] }[]): string {
  if (waiting.length === 0) return '';
  const sorted = [...waiting].sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  const lines = sorted.map((w) => (w.tools.length > 0 ? serverLine({ server: w.server, tools: w.tools }, TOPICS) : `- ${w.server} (its tools are not known until the user signs in)`));
  return truncate([...SIGN_IN_HEADER, ...lines].join('\n'), SERVER_INDEX_MAX_CHARS);
}

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

/**
 * The most frequent subject words in the server's tool names, most frequent first, each as the
 * tools write it (lowercased): singular and plural count as one topic, shown in the spelling the
 * names use most (`entities`, never a stem such as `entitie`). A camelCase name counts by its
 * parts. Ties go to the word that comes first alphabetically, so a catalogue always gives the same text.
 */
export function topicWords(tools: readonly ToolDefinition[], count: number): string[] {
  const server = new Set(tools.flatMap((t) => (t.server ? nameWords(t.server) : [])));
  const topics = new Map<string, { tools: number; spellings: Map<string, number> }>();
  for (const tool of tools) {
    const seen = new Set<string>();
    for (const word of nameWords(tool.toolName)) {
      if (word.length < 3 || /^[0-9]+$/.test(word) || STOP_WORDS.has(word) || ACTIONS.has(word) || server.has(word)) continue;
      const key = topicKey(word);
      if (ACTIONS.has(key) || server.has(key)) continue;
      const topic = topics.get(key) ?? { tools: 0, spellings: new Map<string, number>() };
      topics.set(key, topic);
      topic.spellings.set(word, (topic.spellings.get(word) ?? 0) + 1);
      if (seen.has(key)) continue;
      seen.add(key);
      topic.tools++;
    }
  }
  const shown = [...topics.values()].map((t) => ({ tools: t.tools, word: spelling(t.spellings) }));
  return shown.sort((a, b) => b.tools - a.tools || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0)).slice(0, count).map((t) => t.word);
}

/** The words of a name as written, lowercased: `createPullRequest` → create, pull, request (never the joined whole). */
function nameWords(name: string): string[] {
  const out: string[] = [];
  for (const match of name.matchAll(/[\p{L}\p{N}]+/gu)) {
    const words = splitWords(match[0]);
    // splitWords gives a split word's whole self first; the index shows its parts.
    out.push(...(words.length > 1 ? words.slice(1) : words));
  }
  return out;
}

/** What singular and plural share, used only to count them together; never shown. */
function topicKey(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The spelling the names use most; ties to the shorter, then the first alphabetically. */
function spelling(spellings: ReadonlyMap<string, number>): string {
  const sorted = [...spellings].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return sorted[0]?.[0] ?? '';
}
