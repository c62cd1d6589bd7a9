import { fileMention, SLASH_COMMANDS, type ToolCompletion } from '../src/protocol';

export interface Suggestion {
  readonly label: string;
  readonly detail: string;
  /** The composer text after accepting. */
  readonly replacement: string;
  /** Where the caret goes after accepting: right after the inserted part. */
  readonly caret: number;
}

/** What completion draws on: tool names for `/use`, and the host's files for the `#file:` query being typed. */
export interface CompletionSources {
  readonly tools: readonly ToolCompletion[];
  readonly files: { readonly query: string; readonly paths: readonly string[] } | null;
}

const MAX_SUGGESTIONS = 50;

const MENTIONS: readonly { readonly token: string; readonly detail: string }[] = [
  { token: '#file:', detail: 'attach a workspace file' },
  { token: '#selection', detail: "attach the active editor's selection" },
  { token: '#problems', detail: "attach the active file's problems" },
  { token: '#problems:workspace', detail: "attach the workspace's problems" },
];

/** The `QUERY` of a `#file:QUERY` being typed at the caret, or null when none is. */
export function fileQuery(text: string, caret: number): string | null {
  const m = /(?:^|\s)#file:(\S*)$/.exec(text.slice(0, caret));
  return m && !/^\S/.test(text.slice(caret)) ? (m[1] ?? '') : null;
}

/**
 * Suggestions for composer text whose caret is at `caret`: command names while the first word is
 * typed, tool names while the argument of `/use` is typed, `#` mentions, and workspace files
 * after `#file:`. Only text before the caret counts.
 */
export function suggest(text: string, caret: number, sources: CompletionSources): Suggestion[] {
  const before = text.slice(0, caret);
  const after = text.slice(caret);
  if (/^\S/.test(after)) return [];
  return slashSuggestions(before, after, sources.tools) ?? mentionSuggestions(before, after, sources) ?? [];
}

function slashSuggestions(before: string, after: string, tools: readonly ToolCompletion[]): Suggestion[] | undefined {
  const cmd = /^\/(\w*)$/.exec(before);
  if (cmd) {
    const prefix = (cmd[1] ?? '').toLowerCase();
    return SLASH_COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => {
      const head = c.name === 'tools' ? '/tools' : `/${c.name} `;
      return { label: c.usage, detail: c.description, replacement: head + (c.name === 'tools' ? after : after.trimStart()), caret: head.length };
    });
  }
  const use = /^\/use\s+(\S*)$/i.exec(before);
  if (!use) return undefined;
  const q = (use[1] ?? '').toLowerCase();
  const starts = tools.filter((t) => t.name.toLowerCase().startsWith(q));
  const contains = tools.filter((t) => !t.name.toLowerCase().startsWith(q) && t.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, MAX_SUGGESTIONS).map((t) => {
    const head = `/use ${t.name} `;
    return { label: t.name, detail: t.detail, replacement: head + after.trimStart(), caret: head.length };
  });
}

function mentionSuggestions(before: string, after: string, sources: CompletionSources): Suggestion[] | undefined {
  const replaceToken = (start: number, inserted: string): Pick<Suggestion, 'replacement' | 'caret'> => ({ replacement: before.slice(0, start) + inserted + after.trimStart(), caret: start + inserted.length });
  const file = /(?:^|\s)#file:(\S*)$/.exec(before);
  if (file) {
    const query = file[1] ?? '';
    if (sources.files?.query !== query) return [];
    const start = before.length - query.length - '#file:'.length;
    return sources.files.paths.slice(0, MAX_SUGGESTIONS).map((path) => ({ label: path, detail: 'file', ...replaceToken(start, `${fileMention(path)} `) }));
  }
  const mention = /(?:^|\s)(#[\w:]*)$/.exec(before);
  if (!mention) return undefined;
  const typed = (mention[1] ?? '').toLowerCase();
  const start = before.length - typed.length;
  // A mention typed out in full is done: Enter then sends rather than picking a longer one.
  if (MENTIONS.some((m) => m.token === typed && !m.token.endsWith(':'))) return [];
  return MENTIONS.filter((m) => m.token.startsWith(typed)).map((m) => ({ label: m.token, detail: m.detail, ...replaceToken(start, m.token.endsWith(':') ? m.token : `${m.token} `) }));
}
