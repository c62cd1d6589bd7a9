/**
 * Key assignments such as `tools.NAME.enable.state=false` or
 * `tools.NAME.enable.availability=discoverable` (the `/set KEY=VALUE` path), turned into a
 * raw delta of `quiver.tools` shape. The raw delta goes through the same parser as settings,
 * so the legacy `state` alias resolves here exactly as it does when read from a file.
 */
export type KeyAssignment =
  | { readonly ok: true; readonly delta: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly message: string };

const FIELD_PATHS = new Set(['enable', 'enable.state', 'enable.availability', 'enable.allow_toggle', 'run']);

function parseScalar(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  return trimmed.replace(/^"(.*)"$/, '$1');
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

export function parseKeyAssignment(text: string): KeyAssignment {
  const eq = text.indexOf('=');
  const usage = 'Write KEY=VALUE, e.g. tools.github__create_issue.enable=discoverable or tools.NAME.enable.state=false.';
  if (eq <= 0) return { ok: false, message: `"${text}" is not an assignment. ${usage}` };
  const key = text.slice(0, eq).trim().replace(/^quiver\./, '');
  const value = parseScalar(text.slice(eq + 1));
  if (!key.startsWith('tools.')) return { ok: false, message: `"${key}" cannot be set here: only tools.NAME.enable… and tools.NAME.run can. ${usage}` };
  const rest = key.slice('tools.'.length);
  const field = [...FIELD_PATHS].sort((a, b) => b.length - a.length).find((f) => rest === f || rest.endsWith(`.${f}`));
  if (!field) return { ok: false, message: `"${key}" names no field. Accepted: tools.NAME.${[...FIELD_PATHS].join(', tools.NAME.')}.` };
  const tool = rest.slice(0, Math.max(0, rest.length - field.length - 1));
  if (tool.length === 0) return { ok: false, message: `"${key}" names no tool. ${usage}` };
  return { ok: true, delta: { [tool]: nest(field.split('.'), value) } };
}
