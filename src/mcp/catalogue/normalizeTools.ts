import type { JsonSchema, ToolAnnotations } from '../../core/tools';
import { boundDescription } from '../common/truncate';

/** One tool as its server described it, after the untrusted fields were checked. */
export interface ServerTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly annotations?: ToolAnnotations;
  /** Kept in the shape the server wrote it, so a cached catalogue reads back through normalizeTools as listed. */
  readonly _meta?: { readonly [SIZE_HINT]: number };
}

/** The key of a tool's `_meta` that says how much of one result matters whole, in characters (Claude Code reads it too). */
export const SIZE_HINT = 'anthropic/maxResultSizeChars';

export interface NormalizedTools {
  readonly tools: readonly ServerTool[];
  /** One line per tool that was skipped or repaired, for the log. */
  readonly problems: readonly string[];
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * Checks each raw `tools/list` entry on its own, so one bad tool never costs the server its
 * whole catalogue. A tool without a usable name, or repeating an earlier name, is skipped. An
 * input schema that is not an object schema is replaced by `{ type: "object" }` (keeping its
 * properties when only `type` was missing): the tool stays usable and the server still
 * validates the arguments it receives, reporting bad ones as an error result the model can fix.
 */
export function normalizeTools(raw: readonly unknown[], maxDescriptionChars: number): NormalizedTools {
  const tools: ServerTool[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    const name = isRecord(entry) && typeof entry.name === 'string' ? entry.name : '';
    if (!isRecord(entry) || name === '') {
      problems.push(`tool #${index + 1} skipped: it has no name`);
      return;
    }
    if (seen.has(name)) {
      problems.push(`tool "${name}" skipped: the server lists this name more than once`);
      return;
    }
    seen.add(name);
    const schema = normalizeSchema(entry.inputSchema);
    if (schema.problem !== undefined) problems.push(`tool "${name}": ${schema.problem}`);
    const hint = sizeHintOf(entry._meta);
    if (hint.problem !== undefined) problems.push(`tool "${name}": ${hint.problem}`);
    tools.push({ ...toServerTool(name, entry, schema.value, maxDescriptionChars), ...(hint.value !== undefined ? { _meta: { [SIZE_HINT]: hint.value } } : {}) });
  });
  return { tools, problems };
}

function toServerTool(name: string, entry: Record<string, unknown>, inputSchema: JsonSchema, maxDescriptionChars: number): ServerTool {
  const annotations = normalizeAnnotations(entry.annotations);
  const title = typeof entry.title === 'string' ? entry.title : annotations?.title;
  const description = typeof entry.description === 'string' ? boundDescription(entry.description, maxDescriptionChars) : '';
  return {
    name,
    description,
    inputSchema,
    ...(title !== undefined ? { title } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
  };
}

/** A size hint is a whole number of characters, 1 or more; any other value is ignored (and reported). */
function sizeHintOf(meta: unknown): { value?: number; problem?: string } {
  if (!isRecord(meta) || meta[SIZE_HINT] === undefined) return {};
  const raw = meta[SIZE_HINT];
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 1) return { value: raw };
  return { problem: `_meta["${SIZE_HINT}"] is not a whole number of characters (${describeValue(raw)}); ignored` };
}

function normalizeSchema(schema: unknown): { value: JsonSchema; problem?: string } {
  if (isRecord(schema) && schema.type === 'object') return { value: schema };
  if (isRecord(schema) && schema.type === undefined) {
    return { value: { ...schema, type: 'object' }, problem: 'input schema had no "type"; treated as an object schema' };
  }
  return { value: { type: 'object' }, problem: `input schema is not an object schema (${describeValue(schema)}); replaced by { "type": "object" }` };
}

/** Keeps only the documented hint fields with the right types: everything else is noise. */
function normalizeAnnotations(raw: unknown): ToolAnnotations | undefined {
  if (!isRecord(raw)) return undefined;
  const out: { -readonly [K in keyof ToolAnnotations]: ToolAnnotations[K] } = {};
  if (typeof raw.title === 'string') out.title = raw.title;
  for (const hint of HINTS) {
    const value = raw[hint];
    if (typeof value === 'boolean') out[hint] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function describeValue(value: unknown): string {
  if (isRecord(value)) return `type ${JSON.stringify(value.type)}`;
  if (Array.isArray(value)) return 'an array';
  return value === undefined ? 'missing' : typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
