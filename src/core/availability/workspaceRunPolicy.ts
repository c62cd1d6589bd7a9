import { parseToolsConfig } from './parse';
import { resolveTool, runSourceKey, type ToolIdentity } from './resolve';
import { entryIn, isTable, mergeScopedValues, MOST_SPECIFIC_FIRST, type Json, type ScopedValues, type SettingsScope } from './scopedValues';
import type { ToolsConfig } from './types';

/** A `"run": "unattended"` for one `quiver.tools` key that Quiver does not apply, and the scope it was written in. */
export interface IgnoredRunPolicy {
  readonly key: string;
  readonly scope: SettingsScope;
}

/** Where the user's own say on running unattended comes from. */
export interface RunTrust {
  /**
   * False in a window whose User-scope value may hold a repository's words: a dev container's
   * Machine settings are written from the repository's devcontainer.json, and VS Code reports
   * them merged with User settings.
   */
  readonly userScopeTrusted: boolean;
  /** Keys the user chose "Always allow" for where User settings cannot be told apart (kept outside any settings file). */
  readonly approvals: readonly string[];
}

export const TRUSTED_USER_SCOPE: RunTrust = { userScopeTrusted: true, approvals: [] };

export interface AppliedToolsValue {
  /** `quiver.tools` as VS Code merges it, less the ignored run policies. */
  readonly value: unknown;
  /** Most specific scope first. */
  readonly ignored: readonly IgnoredRunPolicy[];
}

/**
 * `quiver.tools` as Quiver applies it. A workspace's settings file ships with the repository, so
 * a run policy that loosens approval counts only where the user said so outside it: each
 * workspace scope's `"run": "unattended"` for a key stays only when the user's own settings say
 * the same for that key; otherwise it is dropped before the scopes merge, and the key keeps what
 * the other scopes give it. A workspace may still tighten (`"ask"`) and still sets availability.
 */
export function appliedToolsValue(values: ScopedValues, trust: RunTrust = TRUSTED_USER_SCOPE): AppliedToolsValue {
  const approved = (key: string): boolean => (trust.userScopeTrusted ? entryIn(values.user, key)?.['run'] === 'unattended' : trust.approvals.includes(key));
  const ignored: IgnoredRunPolicy[] = [];
  const cleaned: { -readonly [S in SettingsScope]?: unknown } = { ...values };
  for (const scope of MOST_SPECIFIC_FIRST) {
    if (scope === 'user' && trust.userScopeTrusted) continue;
    const { value, dropped } = withoutLooseningRuns(values[scope], approved);
    cleaned[scope] = value;
    ignored.push(...dropped.map((key) => ({ key, scope })));
  }
  if (!trust.userScopeTrusted) cleaned.user = withApprovals(cleaned.user, trust.approvals);
  return { value: mergeScopedValues(cleaned), ignored };
}

/**
 * The ignored run policy that would have let `tool` run without asking: the one of the key its
 * run policy comes from as written, in the most specific scope that wrote it, when it asks as
 * applied. `applied` is the result of parsing `applied.value`, passed in so a caller parses once.
 */
export function ignoredRunPolicyOf(written: ToolsConfig, applied: ToolsConfig, ignored: readonly IgnoredRunPolicy[], tool: ToolIdentity): IgnoredRunPolicy | undefined {
  if (ignored.length === 0 || resolveTool(applied, tool).run !== 'ask') return undefined;
  const source = runSourceKey(written, tool);
  if (source === undefined || written.get(source)?.run !== 'unattended') return undefined;
  return ignored.find((i) => i.key === source);
}

/** `quiver.tools` as written, every scope merged as VS Code merges them (what the ignored entries are judged against). */
export function writtenToolsConfig(values: ScopedValues): ToolsConfig {
  return parseToolsConfig(mergeScopedValues(values)).value;
}

/** One scope's value without the `"run": "unattended"` of keys the user has not approved. */
function withoutLooseningRuns(tools: unknown, approved: (key: string) => boolean): { readonly value: unknown; readonly dropped: readonly string[] } {
  if (!isTable(tools)) return { value: tools, dropped: [] };
  const dropped: string[] = [];
  const value: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(tools)) {
    if (isTable(entry) && entry['run'] === 'unattended' && !approved(key)) {
      dropped.push(key);
      const { run: _unapproved, ...rest } = entry;
      value[key] = rest;
    } else {
      value[key] = entry;
    }
  }
  return { value, dropped };
}

/** The user scope with each approved key set to run unattended. */
function withApprovals(tools: unknown, approvals: readonly string[]): Json {
  const base: Json = isTable(tools) ? tools : {};
  const value: Record<string, unknown> = { ...base };
  for (const key of approvals) value[key] = { ...entryIn(base, key), run: 'unattended' };
  return value;
}
