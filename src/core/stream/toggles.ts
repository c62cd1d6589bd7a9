import { applyToggle, parseKeyAssignment, parseToolsConfig, resolveTool, serverOfQualifiedName, type ToggleDirection, type ToolsConfig } from '../availability';
import type { ToolDefinition } from '../tools/definitions';

export type ToggleTarget = { readonly kind: 'named'; readonly name: string } | { readonly kind: 'bulk' };

/** A conversation-scoped change: the `user` delta to record (absent when nothing moves) and what to tell the user. */
export interface ToggleResult {
  readonly delta?: Readonly<Record<string, unknown>>;
  readonly refused?: string;
  readonly changed: readonly string[];
}

/**
 * A named or bulk enable/disable for this conversation only, obeying each tool's allow_toggle:
 * bulk moves only `any` tools, named also `if_named` ones, `never` refuses a named toggle.
 * Builtins are not toggled in bulk (search_tools follows its registration rule).
 */
export function conversationToggle(config: ToolsConfig, catalogue: readonly ToolDefinition[], target: ToggleTarget, direction: ToggleDirection): ToggleResult {
  if (target.kind === 'named') {
    const tool = catalogue.find((t) => t.name === target.name);
    if (!tool) return { refused: `There is no tool named "${target.name}". Check the Tools view for the exact name (MCP tools are <server>__<tool>).`, changed: [] };
    const outcome = applyToggle(tool.name, resolveTool(config, tool), direction, 'named');
    if (outcome.kind === 'refused') return { refused: outcome.message, changed: [] };
    if (outcome.kind === 'unchanged') return { changed: [] };
    return { delta: { [tool.name]: { enable: { availability: outcome.availability } } }, changed: [tool.name] };
  }
  const delta: Record<string, unknown> = {};
  for (const tool of catalogue) {
    if (tool.server === undefined) continue;
    const outcome = applyToggle(tool.name, resolveTool(config, tool), direction, 'bulk');
    if (outcome.kind === 'changed') delta[tool.name] = { enable: { availability: outcome.availability } };
  }
  const changed = Object.keys(delta);
  return changed.length > 0 ? { delta, changed } : { changed };
}

/**
 * `/set tools.NAME.enable.state=false` and friends, for this conversation. The raw delta is
 * parsed like settings (so the legacy `state` works); a change to `enable` of a locked key
 * (allow_toggle "never") is refused. `serverOfKey` names the real server of a tool whose server
 * is down, so a lock on `<server>__*` holds even when the tool's name shortens the server's.
 */
export function conversationAssignment(
  config: ToolsConfig,
  catalogue: readonly ToolDefinition[],
  text: string,
  serverOfKey: (key: string) => string | undefined = serverOfQualifiedName,
): ToggleResult {
  const assignment = parseKeyAssignment(text);
  if (!assignment.ok) return { refused: assignment.message, changed: [] };
  const parsed = parseToolsConfig(assignment.delta, 'assignment');
  if (parsed.issues.length > 0) return { refused: parsed.issues.map((i) => i.message).join(' '), changed: [] };
  for (const [key, entry] of parsed.value) {
    if (entry.availability === undefined && entry.allowToggle === undefined) continue;
    const tool = catalogue.find((t) => t.name === key);
    // A tool whose server is down still inherits a lock from `<server>__*` or `*`; only wildcard keys stand alone.
    const wildcard = key.endsWith('*');
    const policy = tool ? resolveTool(config, tool).allowToggle : wildcard ? config.get(key)?.allowToggle : resolveTool(config, { name: key, server: serverOfKey(key) ?? serverOfQualifiedName(key) }).allowToggle;
    if (policy === 'never') return { refused: `${key} is locked (allow_toggle is "never"): change its "enable" in settings.json to move it.`, changed: [] };
  }
  return { delta: assignment.delta, changed: [...parsed.value.keys()] };
}
