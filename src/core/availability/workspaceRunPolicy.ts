import { parseToolsConfig } from './parse';
import { resolveTool, runSourceKey, type ToolIdentity } from './resolve';
import { isTable, mergeScopedValues, type ScopedValues, type SettingsScope } from './scopedValues';

/** A workspace's `"run": "unattended"` for one `quiver.tools` key, which Quiver does not apply. */
export interface IgnoredRunPolicy {
  readonly key: string;
  readonly scope: Exclude<SettingsScope, 'user'>;
}

export interface AppliedToolsValue {
  /** `quiver.tools` as VS Code merges it, less the ignored run policies. */
  readonly value: unknown;
  readonly ignored: readonly IgnoredRunPolicy[];
}

const WORKSPACE_SCOPES_MOST_SPECIFIC_FIRST = ['workspaceFolder', 'workspace'] as const;

/**
 * `quiver.tools` as Quiver applies it. A workspace's settings file ships with the repository,
 * so a run policy that loosens approval counts only from the user's own settings: where the
 * merged value says `"run": "unattended"` for a key and User settings do not say so for that
 * key, the key keeps the run policy User settings give it (none: it inherits). A workspace may
 * still tighten (`"ask"`) and still sets availability.
 */
export function appliedToolsValue(values: ScopedValues): AppliedToolsValue {
  const merged = mergeScopedValues(values);
  if (!isTable(merged)) return { value: merged, ignored: [] };
  const ignored: IgnoredRunPolicy[] = [];
  const value: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(merged)) {
    const userRun = runIn(values.user, key);
    if (!isTable(entry) || entry['run'] !== 'unattended' || userRun === 'unattended') {
      value[key] = entry;
      continue;
    }
    const scope = WORKSPACE_SCOPES_MOST_SPECIFIC_FIRST.find((s) => runIn(values[s], key) === 'unattended') ?? 'workspace';
    ignored.push({ key, scope });
    const { run: _fromWorkspace, ...rest } = entry;
    value[key] = userRun === undefined ? rest : { ...rest, run: userRun };
  }
  return { value, ignored };
}

/**
 * The ignored run policy that would have let `tool` run without asking: the one of the key its
 * run policy comes from as written, when it asks as applied.
 */
export function ignoredRunPolicyOf(values: ScopedValues, applied: AppliedToolsValue, tool: ToolIdentity): IgnoredRunPolicy | undefined {
  if (applied.ignored.length === 0) return undefined;
  if (resolveTool(parseToolsConfig(applied.value).value, tool).run !== 'ask') return undefined;
  const source = runSourceKey(parseToolsConfig(mergeScopedValues(values)).value, tool);
  return applied.ignored.find((i) => i.key === source);
}

/** The `run` written for `key` in one scope's `quiver.tools`, if any. */
function runIn(tools: unknown, key: string): unknown {
  const entry = isTable(tools) ? tools[key] : undefined;
  return isTable(entry) ? entry['run'] : undefined;
}
