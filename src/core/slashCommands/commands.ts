import { SLASH_COMMANDS } from './list';

/** What the composer text asks for. `message` is plain text for the model (no command). */
export type SlashCommand =
  | { readonly kind: 'message'; readonly text: string }
  | { readonly kind: 'tools' }
  | { readonly kind: 'use'; readonly tool: string; readonly text: string }
  | { readonly kind: 'set'; readonly key: string; readonly value: string }
  /** `/server.prompt name=value …`: an MCP server's prompt; `text` is what was typed that is no `name=value`. */
  | { readonly kind: 'prompt'; readonly name: string; readonly args: Readonly<Record<string, string>>; readonly text: string };

export type SlashParseResult = { readonly ok: true; readonly command: SlashCommand } | { readonly ok: false; readonly error: string };

/** The Messages API's tool-name rule; a `/use` name that cannot be a tool is a typo worth reporting. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SETTING_KEY = /^[A-Za-z][A-Za-z0-9_.-]*$/;

const PROMPT_COMMAND = /^[^\s.]+\.\S+$/;
const ARGUMENT = /(?<=^|\s)([A-Za-z_][\w-]*)=(?:"([^"]*)"|(\S*))/g;

/** `name=value` and `name="a value"` pairs; what is left is kept as text (a lone argument's value). */
function promptArguments(rest: string): { readonly args: Readonly<Record<string, string>>; readonly text: string } {
  const args: Record<string, string> = {};
  for (const m of rest.matchAll(ARGUMENT)) args[m[1] ?? ''] = m[2] ?? m[3] ?? '';
  return { args, text: rest.replace(ARGUMENT, '').trim() };
}

const commandList = SLASH_COMMANDS.map((c) => c.usage).join(', ');
const ESCAPE_HINT = 'Start the message with // to send text that begins with /.';

const fail = (error: string): SlashParseResult => ({ ok: false, error });
const ok = (command: SlashCommand): SlashParseResult => ({ ok: true, command });

/**
 * Parses composer text. Anything not starting with `/` is a message as typed; `//` escapes a
 * leading slash. Command names are case-insensitive; arguments are kept as written.
 */
export function parseSlashCommand(input: string): SlashParseResult {
  const text = input.trimStart();
  if (!text.startsWith('/')) return ok({ kind: 'message', text: input });
  if (text.startsWith('//')) return ok({ kind: 'message', text: text.slice(1) });

  const match = /^\/(\S*)(?:\s+([\s\S]*))?$/.exec(text);
  const name = (match?.[1] ?? '').toLowerCase();
  const rest = (match?.[2] ?? '').trim();

  switch (name) {
    case 'tools':
      if (rest !== '') return fail(`/tools takes no arguments (got "${rest}").`);
      return ok({ kind: 'tools' });
    case 'use': {
      const m = /^(\S+)(?:\s+([\s\S]*))?$/.exec(rest);
      const tool = m?.[1];
      if (tool === undefined) return fail('/use needs a tool name and a message, e.g. /use fs__read_file summarise README.md');
      if (!TOOL_NAME.test(tool)) return fail(`"${tool}" is not a tool name: names use letters, digits, _ and - (at most 64).`);
      const message = (m?.[2] ?? '').trim();
      if (message === '') return fail(`/use ${tool} needs a message after the tool name, e.g. /use ${tool} what can you do with it?`);
      return ok({ kind: 'use', tool, text: message });
    }
    case 'set': {
      const eq = rest.indexOf('=');
      if (rest === '' || eq < 0) return fail('/set needs KEY=VALUE, e.g. /set maxTokens=4096');
      const key = rest.slice(0, eq).trim();
      const value = rest.slice(eq + 1).trim();
      if (!SETTING_KEY.test(key)) return fail(`"${key}" is not a setting key: start with a letter; use letters, digits, _, . and -.`);
      if (value === '') return fail(`/set ${key}= needs a value after =.`);
      if (/[\r\n]/.test(value)) return fail(`/set ${key} takes a single-line value.`);
      return ok({ kind: 'set', key, value });
    }
    case '':
      return fail(`Type a command after /. Commands: ${commandList}. ${ESCAPE_HINT}`);
    default: {
      const written = match?.[1] ?? '';
      // A server's prompt is `/server.prompt`: which exist is the host's to check.
      if (PROMPT_COMMAND.test(written)) return ok({ kind: 'prompt', name: written, ...promptArguments(rest) });
      return fail(`Unknown command /${written}. Commands: ${commandList}, or /SERVER.PROMPT for an MCP server's prompt. ${ESCAPE_HINT}`);
    }
  }
}
