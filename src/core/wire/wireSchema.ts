import { isDeepStrictEqual } from 'node:util';
import type { JsonSchema } from '../tools/definitions';

/**
 * An input schema as the Messages API takes it. The API refuses a request whose any tool has
 * `oneOf`, `anyOf` or `allOf` at the top of its `input_schema` ("input_schema does not support
 * oneOf, allOf, or anyOf at the top level"), and one that is not `type: "object"`: one such MCP
 * tool fails every request that carries it, whichever tool the model wanted.
 */
export interface WireSchema {
  readonly schema: Record<string, unknown>;
  /** Set when the tool cannot be sent: why, for the Tools view ("Not sent to the model: …"). */
  readonly issue?: string;
}

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
type Combinator = (typeof COMBINATORS)[number];

/** Nested combinators inside a branch are flattened this deep; deeper is left out as unfaithful. */
const MAX_DEPTH = 3;

/**
 * Rewrites a schema the API refuses into one it takes, or says why it cannot.
 * - No `type`: `type: "object"` is added (MCP's tool inputs are objects).
 * - A top-level combinator whose branches are all object schemas (local `$ref`s resolved) is
 *   merged into one object schema: every branch's properties, `required` as the combinator
 *   implies it (allOf: every branch's; anyOf/oneOf: only what every branch requires), and the
 *   alternatives written into `description`, so the model still knows which arguments go
 *   together. The server still validates the call and returns an error the model can act on.
 * - A branch that is not an object schema (a string, an array, a `not`) cannot be merged
 *   faithfully: the tool is left out, with an issue saying why.
 * A schema that needs nothing is returned as it came (the same object), so its bytes never change.
 */
export function wireInputSchema(schema: JsonSchema): WireSchema {
  const needsType = schema.type === undefined;
  if (!needsType && schema.type !== 'object') {
    return { schema: { type: 'object' }, issue: `its input schema is of type ${JSON.stringify(schema.type)}, not an object schema, and the Messages API takes only objects as tool input` };
  }
  const combinators = COMBINATORS.filter((c) => schema[c] !== undefined);
  if (combinators.length === 0) return { schema: needsType ? { ...schema, type: 'object' } : schema };
  const merged = mergeTop(schema, schema, 0);
  if (typeof merged === 'string') return { schema: { type: 'object' }, issue: merged };
  return { schema: merged };
}

/** An object schema without top-level combinators, or why `node` cannot be made one. */
function mergeTop(node: JsonSchema, root: JsonSchema, depth: number): Record<string, unknown> | string {
  const { allOf, anyOf, oneOf, ...base } = node;
  let out: Record<string, unknown> = { ...base, type: 'object' };
  const notes: string[] = [];
  for (const [combinator, value] of [['allOf', allOf], ['anyOf', anyOf], ['oneOf', oneOf]] as const) {
    if (value === undefined) continue;
    const branches = branchesOf(combinator, value, root, depth);
    if (typeof branches === 'string') return branches;
    out = combinator === 'allOf' ? mergeAll(out, branches) : mergeAlternatives(out, branches);
    if (combinator !== 'allOf') notes.push(alternativesNote(combinator, branches));
  }
  if (notes.length > 0) out.description = [typeof base.description === 'string' ? base.description : '', ...notes].filter((t) => t !== '').join('\n\n');
  return out;
}

/** The combinator's branches as flat object schemas, or why one of them is not one. */
function branchesOf(combinator: Combinator, value: unknown, root: JsonSchema, depth: number): Record<string, unknown>[] | string {
  const where = `its input schema's top-level ${combinator}`;
  if (!Array.isArray(value) || value.length === 0) return `${where} is not a list of schemas`;
  const out: Record<string, unknown>[] = [];
  for (const [i, raw] of value.entries()) {
    const branch = resolveRef(raw, root);
    if (!isRecord(branch)) return `${where} has a branch (${i + 1}) that is not a schema${refNote(raw)}`;
    if (branch.type !== undefined && branch.type !== 'object') {
      return `${where} has a branch (${i + 1}) of type ${JSON.stringify(branch.type)}, which cannot be merged into the one object schema the Messages API takes at the top level`;
    }
    if (branch.not !== undefined) return `${where} has a branch (${i + 1}) with "not", which an object schema without combinators cannot express`;
    const nested = COMBINATORS.some((c) => branch[c] !== undefined);
    if (nested && depth + 1 >= MAX_DEPTH) return `${where} nests combinators more than ${MAX_DEPTH} deep`;
    const flat = nested ? mergeTop(branch, root, depth + 1) : { ...branch, type: 'object' };
    if (typeof flat === 'string') return flat;
    out.push(flat);
  }
  return out;
}

/** allOf: every branch holds, so properties and `required` add up. */
function mergeAll(base: Record<string, unknown>, branches: readonly Record<string, unknown>[]): Record<string, unknown> {
  let out = base;
  for (const branch of branches) {
    const { properties, required, type: _type, description: _description, title: _title, additionalProperties: _additional, ...rest } = branch;
    out = {
      ...rest,
      ...out,
      properties: mergeProperties([propertiesOf(out), recordOr(properties)], 'allOf'),
      required: union(stringsOf(out.required), stringsOf(required)),
    };
  }
  return tidy(out);
}

/**
 * anyOf / oneOf: one of the branches holds, so a property any branch names is allowed and only
 * what every branch requires is required. A property two branches describe differently takes
 * both descriptions (an enum of their constants, else a nested anyOf, which the API accepts).
 */
function mergeAlternatives(base: Record<string, unknown>, branches: readonly Record<string, unknown>[]): Record<string, unknown> {
  const requiredByAll = branches.map((b) => stringsOf(b.required)).reduce((a, b) => a.filter((name) => b.includes(name)));
  // `additionalProperties: false` in one branch would forbid the others' properties: only the base's own stays.
  return tidy({
    ...base,
    properties: mergeProperties([propertiesOf(base), ...branches.map((b) => recordOr(b.properties))], 'anyOf'),
    required: union(stringsOf(base.required), requiredByAll),
  });
}

function mergeProperties(sources: readonly Record<string, unknown>[], how: 'allOf' | 'anyOf'): Record<string, unknown> {
  const variants = new Map<string, unknown[]>();
  for (const properties of sources) {
    for (const [name, schema] of Object.entries(properties)) {
      const seen = variants.get(name) ?? [];
      if (!seen.some((s) => isDeepStrictEqual(s, schema))) seen.push(schema);
      variants.set(name, seen);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [name, seen] of variants) out[name] = seen.length === 1 ? seen[0] : how === 'allOf' ? { allOf: seen } : unionOfVariants(seen);
  return out;
}

/** `{ const: "a" }` and `{ const: "b" }` (a discriminator) become `{ enum: ["a", "b"] }`; anything else an anyOf. */
function unionOfVariants(variants: readonly unknown[]): unknown {
  const values: unknown[] = [];
  let description: string | undefined;
  for (const v of variants) {
    if (!isRecord(v)) return { anyOf: variants };
    const { const: constant, enum: enumerated, type: _type, description: text, ...rest } = v;
    if (Object.keys(rest).length > 0) return { anyOf: variants };
    if (constant !== undefined) values.push(constant);
    else if (Array.isArray(enumerated)) values.push(...(enumerated as unknown[]));
    else return { anyOf: variants };
    if (typeof text === 'string') description ??= text;
  }
  const types = [...new Set(variants.map((v) => (isRecord(v) ? v.type : undefined)).filter((t) => t !== undefined))];
  const unique = values.filter((value, i) => values.findIndex((other) => isDeepStrictEqual(other, value)) === i);
  return { ...(types.length === 1 ? { type: types[0] } : {}), enum: unique, ...(description !== undefined ? { description } : {}) };
}

/** The alternatives in words: which arguments go together, for the model that no longer sees the combinator. */
function alternativesNote(combinator: 'anyOf' | 'oneOf', branches: readonly Record<string, unknown>[]): string {
  const lines = branches.map((branch, i) => {
    const required = stringsOf(branch.required);
    const others = Object.keys(recordOr(branch.properties)).filter((p) => !required.includes(p));
    const parts = [
      required.length > 0 ? `requires ${required.join(', ')}` : '',
      others.length > 0 ? `${required.length > 0 ? 'also takes' : 'takes'} ${others.join(', ')}` : '',
    ].filter((p) => p !== '');
    const label = typeof branch.title === 'string' ? `${branch.title}: ` : '';
    const said = typeof branch.description === 'string' ? ` (${branch.description})` : '';
    return `${i + 1}. ${label}${parts.length > 0 ? parts.join('; ') : 'no particular arguments'}${said}`;
  });
  return `${combinator === 'oneOf' ? 'Give exactly one of these argument sets' : 'Give at least one of these argument sets'}:\n${lines.join('\n')}`;
}

/** A local `$ref` (`#/$defs/X`, `#/definitions/X`) replaced by what it points to; anything else as it is. */
function resolveRef(node: unknown, root: JsonSchema): unknown {
  if (!isRecord(node) || typeof node.$ref !== 'string') return node;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(node.$ref);
  if (!match) return undefined;
  const defs = root[match[1] ?? ''];
  const target = isRecord(defs) ? defs[decodeURIComponent(match[2] ?? '').replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  if (!isRecord(target)) return undefined;
  const { $ref: _ref, ...siblings } = node;
  return { ...target, ...siblings };
}

function refNote(raw: unknown): string {
  return isRecord(raw) && typeof raw.$ref === 'string' ? ` (its $ref ${JSON.stringify(raw.$ref)} does not point into the schema's own $defs)` : '';
}

/** Drops an empty `required`, which says nothing. */
function tidy(schema: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(schema.required) && schema.required.length === 0) {
    const { required: _required, ...rest } = schema;
    return rest;
  }
  return schema;
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> {
  return recordOr(schema.properties);
}

function recordOr(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
