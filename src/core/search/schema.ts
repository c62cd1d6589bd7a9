import type { JsonSchema } from '../tools/definitions';

/** One parameter found in an input schema; nested properties get dotted paths (`a.b`, `a[].c`). */
export interface ParameterInfo {
  readonly path: string;
  /** The property's own name, the last segment of `path`. */
  readonly name: string;
  readonly type: string | undefined;
  readonly required: boolean;
  readonly description: string | undefined;
  readonly enumValues: readonly string[];
}

// Schemas come from MCP servers and are untrusted: bound the walk so a hostile or
// recursive schema cannot make indexing or describe_tools unbounded.
const MAX_DEPTH = 6;
const MAX_PARAMETERS = 200;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeOf(schema: JsonSchema): string | undefined {
  const t = schema['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string').join(' | ') || undefined;
  return undefined;
}

const NO_VALUES: readonly string[] = [];

function enumOf(schema: JsonSchema): readonly string[] {
  const values = schema['enum'];
  if (!Array.isArray(values)) return NO_VALUES;
  return values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

/**
 * Every parameter of an input schema, walking properties, array items and combinators,
 * breadth first so that top-level parameters come before nested ones.
 */
export function parametersOf(schema: unknown): ParameterInfo[] {
  const out: ParameterInfo[] = [];
  if (!isObject(schema)) return out;
  const queue: [JsonSchema, string, number][] = [[schema, '', 0]];
  for (let i = 0; i < queue.length && out.length < MAX_PARAMETERS; i++) {
    const [node, prefix, depth] = queue[i] ?? [{}, '', 0];
    if (depth > MAX_DEPTH) continue;
    for (const [child, childPrefix] of visit(node, prefix, out)) queue.push([child, childPrefix, depth + 1]);
  }
  return out;
}

/** Records `node`'s own properties and returns the sub-schemas to visit next. */
function visit(node: JsonSchema, prefix: string, out: ParameterInfo[]): [JsonSchema, string][] {
  const next: [JsonSchema, string][] = [];
  const properties = node['properties'];
  const requiredList = node['required'];
  const required = Array.isArray(requiredList) ? requiredList : [];
  if (isObject(properties)) {
    // for…in rather than Object.entries: index builds walk ~100,000 properties per 10,000 tools.
    for (const name in properties) {
      if (!Object.hasOwn(properties, name)) continue;
      if (out.length >= MAX_PARAMETERS) break;
      const child = properties[name];
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const sub = isObject(child) ? child : {};
      const description = typeof sub['description'] === 'string' ? sub['description'] : undefined;
      out.push({ path, name, type: typeOf(sub), required: required.includes(name), description, enumValues: enumOf(sub) });
      next.push([sub, path]);
    }
  }
  const items = node['items'];
  if (isObject(items)) next.push([items, `${prefix}[]`]);
  for (const key of COMBINATORS) {
    const options = node[key];
    if (Array.isArray(options)) for (const option of options) if (isObject(option)) next.push([option, prefix]);
  }
  return next;
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;
