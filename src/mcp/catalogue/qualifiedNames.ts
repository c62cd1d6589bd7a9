import { createHash } from 'node:crypto';
import { isBuiltinToolName } from '../../core/tools';

export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

const MAX_LENGTH = 64;
const HASH_LENGTH = 8;
const MAX_SERVER_SEGMENT = 24;
/** A server segment without `__` and without edge underscores, so the first `__` of a name is the separator. */
const CLEAN_SERVER = /^[a-zA-Z0-9-]+(?:_[a-zA-Z0-9-]+)*$/;
const CLEAN_TOOL = /^[a-zA-Z0-9_-]+$/;

/**
 * The name the model sees for one MCP tool: `server__tool` when that is already valid, else a
 * sanitized, shortened form ending in a hash of the exact (server, tool) pair. It depends only
 * on the pair, so a tool keeps its name (and its settings) when other tools come and go.
 */
export function qualifyToolName(server: string, tool: string): string {
  const plain = `${server}__${tool}`;
  if (CLEAN_SERVER.test(server) && CLEAN_TOOL.test(tool) && plain.length <= MAX_LENGTH) return plain;
  const serverSegment = shortServerSegment(server);
  const room = MAX_LENGTH - serverSegment.length - '__'.length - '_'.length - HASH_LENGTH;
  const toolSegment = (tool.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool').slice(0, room);
  return `${serverSegment}__${toolSegment}_${shortHash(server, tool)}`;
}

/**
 * Names every tool uniquely. Distinct pairs already get distinct names except for hash
 * collisions or a clean name that happens to look hashed; those rare clashes are settled by
 * a numbered suffix in sorted (server, tool) order, so the outcome is still deterministic.
 */
export function assignQualifiedNames(refs: readonly ToolRef[]): Map<string, ToolRef> {
  const byName = new Map<string, ToolRef>();
  const sorted = [...refs].sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool));
  for (const ref of sorted) {
    const base = qualifyToolName(ref.server, ref.tool);
    let name = base;
    for (let n = 2; byName.has(name) || isBuiltinToolName(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_LENGTH - suffix.length) + suffix;
    }
    byName.set(name, ref);
  }
  return byName;
}

/**
 * Whether a `quiver.tools` key can name a tool of `server`: its tools' qualified names start
 * with the plain `server__` or, when shortened, with the sanitized segment.
 */
export function ownsToolKey(server: string): (key: string) => boolean {
  const prefixes = [`${server}__`, `${shortServerSegment(server)}__`];
  return (key) => prefixes.some((prefix) => key.startsWith(prefix));
}

function shortServerSegment(server: string): string {
  return sanitizeServer(server).slice(0, MAX_SERVER_SEGMENT).replace(/_+$/, '') || 'server';
}

function sanitizeServer(server: string): string {
  return server.replace(/[^a-zA-Z0-9-]+/g, '_').replace(/^_+/, '');
}

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(JSON.stringify([server, tool])).digest('hex').slice(0, HASH_LENGTH);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
