import { z } from 'zod';
import type { ToolDefinition } from '../tools/definitions';
import { closest } from './fuzzy';
import { fail, ok, type BuiltinResult } from './result';
import { parametersOf } from './schema';

/** Names per call; the docs of 20 tools are already a lot of context. */
export const DESCRIBE_MAX_NAMES = 20;
const SUGGESTIONS = 3;

export interface ParameterDoc {
  /** Dotted path for nested properties: `options.force`, `items[].id`. */
  readonly path: string;
  readonly type?: string;
  readonly required: boolean;
  readonly description?: string;
  readonly enum?: readonly string[];
}

export interface ToolDoc {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly parameters: readonly ParameterDoc[];
}

const DescribeToolsInput = z.object({
  names: z
    .array(z.string(), { error: '`names` must be an array of tool names.' })
    .min(1, { error: '`names` is empty: pass the names of the tools to describe.' })
    .max(DESCRIBE_MAX_NAMES, { error: `\`names\` may hold at most ${DESCRIBE_MAX_NAMES} tool names.` }),
});

/**
 * The `describe_tools` builtin: full description and parameter docs of permitted tools.
 * `permitted` is the permitted set keyed by name; a name outside it is an error that names
 * it and suggests the closest permitted names, and nothing is described for that call.
 */
export function describeTools(permitted: ReadonlyMap<string, ToolDefinition>, input: unknown): BuiltinResult<readonly ToolDoc[]> {
  const parsed = DescribeToolsInput.safeParse(input ?? {});
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'invalid input to describe_tools');
  const unknown = parsed.data.names.filter((n) => !permitted.has(n));
  if (unknown.length > 0) return fail(unknown.map((n) => unknownMessage(n, permitted)).join('\n'));
  const docs = [...new Set(parsed.data.names)].map((n) => docOf(permitted.get(n) as ToolDefinition));
  return ok(docs);
}

function unknownMessage(name: string, permitted: ReadonlyMap<string, ToolDefinition>): string {
  const lower = name.toLowerCase();
  const names = [...permitted.keys()];
  const bySpelling = closest(lower, names.map((n) => n.toLowerCase()), Math.max(2, Math.floor(lower.length / 3)), SUGGESTIONS);
  const byPart = names.filter((n) => lower.length >= 3 && n.toLowerCase().includes(lower));
  const suggestions = [...new Set([...bySpelling.map((l) => names.find((n) => n.toLowerCase() === l) ?? l), ...byPart])].slice(0, SUGGESTIONS);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `\`${s}\``).join(', ')}?` : ' Use search_tools to find tools by what they do.';
  return `No tool named \`${name}\` is available.${hint}`;
}

function docOf(tool: ToolDefinition): ToolDoc {
  const parameters = parametersOf(tool.inputSchema).map((p) => ({
    path: p.path,
    required: p.required,
    ...(p.type === undefined ? {} : { type: p.type }),
    ...(p.description === undefined ? {} : { description: p.description }),
    ...(p.enumValues.length === 0 ? {} : { enum: p.enumValues }),
  }));
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: typeof tool.description === 'string' ? tool.description : '',
    parameters,
  };
}
