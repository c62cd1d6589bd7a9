import { parseTree, type Node } from 'jsonc-parser';
import { basename, dirname, isAbsolute, relative, sep } from 'node:path';

/**
 * Files whose content decides what Quiver may do: settings files (`quiver.*` keys), MCP server
 * lists, and dev container definitions (which write Machine settings). A change to Quiver's own
 * settings asks the user whatever the tool's run policy, so a model cannot widen its own
 * permissions (turn a tool on, let it run unattended, add a server).
 */
export function protectedChangeReason(path: string, before: string | null, after: string | null): string | undefined {
  const name = basename(path);
  const folder = basename(dirname(path));
  if (name === 'mcp.json' && folder === '.vscode') return `it changes ${name}, the MCP servers this workspace starts`;
  const settingsFile = name === 'settings.json' || name.endsWith('.code-workspace') || name === 'devcontainer.json' || name === '.devcontainer.json';
  if (!settingsFile) return undefined;
  const changed = quiverKeysChanged(before ?? '{}', after ?? '{}');
  return changed.length === 0 ? undefined : `it changes Quiver's own settings (${changed.join(', ')}) in ${name}`;
}

/** Keys starting with `quiver.` (at any depth) whose value differs between the two JSON-with-comments texts. */
function quiverKeysChanged(before: string, after: string): string[] {
  const a = quiverValues(before);
  const b = quiverValues(after);
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}

function quiverValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const visit = (node: Node | undefined): void => {
    if (node === undefined) return;
    if (node.type === 'property') {
      const [key, value] = node.children ?? [];
      if (typeof key?.value === 'string' && key.value.startsWith('quiver.')) values.set(key.value, JSON.stringify(plain(value)));
    }
    for (const child of node.children ?? []) visit(child);
  };
  // A file that does not parse counts as holding whatever its text says: compare the raw text.
  const tree = parseTree(text, [], { allowTrailingComma: true });
  if (tree === undefined && /quiver\./.test(text)) values.set('quiver.* (unparsable file)', text);
  visit(tree);
  return values;
}

function plain(node: Node | undefined): unknown {
  if (node === undefined) return undefined;
  if (node.type === 'object') return Object.fromEntries((node.children ?? []).map((p) => [String(p.children?.[0]?.value), plain(p.children?.[1])]));
  if (node.type === 'array') return (node.children ?? []).map(plain);
  return node.value as unknown;
}

/** True when `path` (absolute) lies in `root` or is it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when some folder of `path` is a `.git` folder: Quiver never writes there. */
export function isInGitFolder(path: string): boolean {
  return path.split(sep).slice(0, -1).includes('.git') || basename(path) === '.git';
}

/** True when a path as written climbs out with `..` (refused: paths are given from a workspace folder, never around it). */
export function climbsOut(written: string): boolean {
  return written.split(/[\\/]/).includes('..');
}
