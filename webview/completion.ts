import { SLASH_COMMANDS, type ToolCompletion } from '../src/protocol';

export interface Suggestion {
  readonly label: string;
  readonly detail: string;
  /** The composer text after accepting. */
  readonly replacement: string;
  /** Where the caret goes after accepting: right after the inserted part. */
  readonly caret: number;
}

const MAX_SUGGESTIONS = 50;

/**
 * Suggestions for composer text whose caret is at `caret`: command names while the first word is
 * typed, tool names while the argument of `/use` is typed. Only text before the caret counts.
 */
export function suggest(text: string, caret: number, tools: readonly ToolCompletion[]): Suggestion[] {
  const before = text.slice(0, caret);
  const after = text.slice(caret);
  const cmd = /^\/(\w*)$/.exec(before);
  if (cmd && !/^\S/.test(after)) {
    const prefix = (cmd[1] ?? '').toLowerCase();
    return SLASH_COMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => {
      const head = c.name === 'tools' ? '/tools' : `/${c.name} `;
      return { label: c.usage, detail: c.description, replacement: head + (c.name === 'tools' ? after : after.trimStart()), caret: head.length };
    });
  }
  const use = /^\/use\s+(\S*)$/i.exec(before);
  if (use && !/^\S/.test(after)) {
    const q = (use[1] ?? '').toLowerCase();
    const starts = tools.filter((t) => t.name.toLowerCase().startsWith(q));
    const contains = tools.filter((t) => !t.name.toLowerCase().startsWith(q) && t.name.toLowerCase().includes(q));
    return [...starts, ...contains].slice(0, MAX_SUGGESTIONS).map((t) => {
      const head = `/use ${t.name} `;
      return { label: t.name, detail: t.detail, replacement: head + after.trimStart(), caret: head.length };
    });
  }
  return [];
}
