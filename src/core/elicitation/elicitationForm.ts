/**
 * A server's `elicitation/create` form, as Quiver shows it: the requested schema (a flat object
 * of primitive properties, per the MCP spec) turned into fields, with the schema's defaults
 * filled in (SEP-1034). Pure: the webview renders the fields, the host validates the answer.
 */
export type FieldValue = string | number | boolean | readonly string[];

interface FieldBase {
  readonly key: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
}

export type FormField =
  | (FieldBase & { readonly kind: 'text'; readonly default?: string; readonly minLength?: number; readonly maxLength?: number; readonly format?: string })
  | (FieldBase & { readonly kind: 'number'; readonly integer: boolean; readonly default?: number; readonly minimum?: number; readonly maximum?: number })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldBase & { readonly kind: 'choice'; readonly options: readonly ChoiceOption[]; readonly default?: string })
  | (FieldBase & { readonly kind: 'choices'; readonly options: readonly ChoiceOption[]; readonly default?: readonly string[]; readonly minItems?: number; readonly maxItems?: number });

export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
}

export type FormAnswer = Readonly<Record<string, FieldValue>>;

type Json = Readonly<Record<string, unknown>>;

/** The fields of a requested schema; a property of a type the spec does not allow is an error naming it. */
export function formFields(schema: unknown): { readonly fields: readonly FormField[] } | { readonly error: string } {
  if (!isObject(schema) || !isObject(schema.properties)) return { error: 'the requested schema has no "properties" object' };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: FormField[] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    const field = isObject(property) ? fieldOf(key, property, required.has(key)) : undefined;
    if (field === undefined) return { error: `the requested property "${key}" is not a string, number, integer, boolean or enum` };
    fields.push(field);
  }
  return { fields };
}

function fieldOf(key: string, p: Json, required: boolean): FormField | undefined {
  const base: FieldBase = { key, label: text(p.title) ?? key, description: text(p.description), required };
  if (Array.isArray(p.enum) || Array.isArray(p.oneOf) || Array.isArray(p.anyOf)) {
    const options = choiceOptions(p);
    return options === undefined ? undefined : { ...base, kind: 'choice', options, default: optionDefault(p.default, options) };
  }
  if (p.type === 'array' && isObject(p.items)) {
    const itemOptions = choiceOptions(p.items);
    if (itemOptions === undefined) return undefined;
    const chosen = Array.isArray(p.default) ? p.default.filter((d): d is string => typeof d === 'string' && itemOptions.some((o) => o.value === d)) : undefined;
    return { ...base, kind: 'choices', options: itemOptions, default: chosen, minItems: num(p.minItems), maxItems: num(p.maxItems) };
  }
  switch (p.type) {
    case 'string':
      return { ...base, kind: 'text', default: text(p.default), minLength: num(p.minLength), maxLength: num(p.maxLength), format: text(p.format) };
    case 'number':
    case 'integer':
      return { ...base, kind: 'number', integer: p.type === 'integer', default: num(p.default), minimum: num(p.minimum), maximum: num(p.maximum) };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof p.default === 'boolean' ? p.default : undefined };
    default:
      return undefined;
  }
}

/** `enum` (with the legacy `enumNames`) or `oneOf` / `anyOf` of `{ const, title }`. */
function choiceOptions(p: Json): readonly ChoiceOption[] | undefined {
  if (Array.isArray(p.enum)) {
    const names: readonly unknown[] = Array.isArray(p.enumNames) ? p.enumNames : [];
    // Paired before filtering: a non-string value must not shift the labels after it.
    const options = p.enum.flatMap((value: unknown, i) => (typeof value === 'string' ? [{ value, label: text(names[i]) ?? value }] : []));
    return options.length > 0 ? options : undefined;
  }
  const alternatives = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined;
  if (alternatives === undefined) return undefined;
  const options = alternatives.filter(isObject).flatMap((a) => (typeof a.const === 'string' ? [{ value: a.const, label: text(a.title) ?? a.const }] : []));
  // A choice with nothing to choose could never be answered: the schema is one Quiver cannot show.
  return options.length > 0 ? options : undefined;
}

function optionDefault(value: unknown, options: readonly ChoiceOption[]): string | undefined {
  return typeof value === 'string' && options.some((o) => o.value === value) ? value : undefined;
}

/** The form as first shown: every field with a default holds it. */
export function initialAnswer(fields: readonly FormField[]): FormAnswer {
  return Object.fromEntries(fields.flatMap((f) => (f.default === undefined ? [] : [[f.key, f.default]])));
}

/** Per-field problems of an answer, each naming the field by its label; empty when it may be sent. */
export function answerProblems(fields: readonly FormField[], answer: FormAnswer): readonly { readonly key: string; readonly message: string }[] {
  return fields.flatMap((f) => {
    const message = fieldProblem(f, answer[f.key]);
    return message === undefined ? [] : [{ key: f.key, message: `${f.label}: ${message}` }];
  });
}

function fieldProblem(field: FormField, value: FieldValue | undefined): string | undefined {
  if (value === undefined || value === '') return field.required ? 'required' : undefined;
  switch (field.kind) {
    case 'text':
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength) return `at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `at most ${field.maxLength} characters`;
      if (field.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return 'must be an email address';
      if (field.format === 'uri' && !isUrl(value)) return 'must be a URL';
      return undefined;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.integer && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be yes or no';
    case 'choice':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? undefined : `must be one of ${field.options.map((o) => o.label).join(', ')}`;
    case 'choices': {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) return 'must be chosen from the list';
      if (field.minItems !== undefined && value.length < field.minItems) return `choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `choose at most ${field.maxItems}`;
      return undefined;
    }
  }
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
