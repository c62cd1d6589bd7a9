import { fileMention, resourceMention, SLASH_COMMANDS, type ToolCompletion } from '../src/protocol';

export interface Suggestion {
  readonly label: string;
  readonly detail: string;
  /** The composer text after accepting. */
  readonly replacement: string;
  /** Where the caret goes after accepting: right after the inserted part. */
  readonly caret: number;
}

/**
 * What completion draws on: tool names for `/use`, MCP prompts after `/`, MCP resources after
 * `#resource:`, and the host's files for the `#file:` query being typed.
 */
export interface CompletionSources {
  readonly tools: readonly ToolCompletion[];
  readonly prompts: readonly ToolCompletion[];
  readonly resources: readonly ToolCompletion[];
  readonly files: { readonly query: string; readonly paths: readonly string[] } | null;
}

const MAX_SUGGESTIONS = 50;

const MENTIONS: readonly { readonly token: string; readonly detail: string }[] = [
  { token: '#file:', detail: 'attach a workspace file' },
  { token: '#selection', detail: "attach the active editor's selection" },
  { token: '#problems', detail: "attach the active file's problems" },
  { token: '#problems:workspace', detail: "attach the workspace's problems" },
  { token: '#resource:', detail: "attach an MCP server's resource" },
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
  return slashSuggestions(before, after, sources) ?? mentionSuggestions(before, after, sources) ?? [];
}

function slashSuggestions(before: string, after: string, { tools, prompts }: CompletionSources): Suggestion[] | undefined {
  const cmd = /^\/(\S*)$/.exec(before);
  if (cmd) {
    const prefix = (cmd[1] ?? '').toLowerCase();
    const commands = SLASH_COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => {
      // A command without arguments (/tools, /compact) is complete as typed: Enter sends it.
      const bare = c.usage === `/${c.name}`;
      const head = bare ? c.usage : `/${c.name} `;
      return { label: c.usage, detail: c.description, replacement: head + (bare ? after : after.trimStart()), caret: head.length };
    });
    // By the start of the server's name or of the prompt's: a letter anywhere would match most of them.
    const serverPrompts = prompts.filter((p) => p.name.toLowerCase().startsWith(prefix) || p.name.slice(p.name.indexOf('.') + 1).toLowerCase().startsWith(prefix)).map((p) => {
      const head = `/${p.name} `;
      return { label: `/${p.name}`, detail: p.detail, replacement: head + after.trimStart(), caret: head.length };
    });
    return [...commands, ...serverPrompts].slice(0, MAX_SUGGESTIONS);
  }
  const use = /^\/use\s+(\S*)$/i.exec(before);
  if (!use) return undefined;
  return matching(tools, (use[1] ?? '').toLowerCase()).slice(0, MAX_SUGGESTIONS).map((t) => {
    const head = `/use ${t.name} `;
    return { label: t.name, detail: t.detail, replacement: head + after.trimStart(), caret: head.length };
  });
}

/** Names starting with `q` first, then those containing it. */
function matching(items: readonly ToolCompletion[], q: string): ToolCompletion[] {
  const starts = items.filter((t) => t.name.toLowerCase().startsWith(q));
  const contains = items.filter((t) => !t.name.toLowerCase().startsWith(q) && t.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}

function mentionSuggestions(before: string, after: string, sources: CompletionSources): Suggestion[] | undefined {
  const replaceToken = (start: number, inserted: string): Pick<Suggestion, 'replacement' | 'caret'> => ({ replacement: before.slice(0, start) + inserted + after.trimStart(), caret: start + inserted.length });
  const resource = /(?:^|\s)#resource:(\S*)$/.exec(before);
  if (resource) {
    const query = (resource[1] ?? '').toLowerCase();
    const start = before.length - query.length - '#resource:'.length;
    return matching(sources.resources, query).slice(0, MAX_SUGGESTIONS).map((r) => {
      const colon = r.name.indexOf(':');
      return { label: r.name, detail: r.detail, ...replaceToken(start, `${resourceMention(r.name.slice(0, colon), r.name.slice(colon + 1))} `) };
    });
  }
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
