import { resolveTool } from './resolve';
import { DEFAULTS_KEY, serverDefaultsKey, serverOfQualifiedName, type ToolsConfig } from './types';

export interface ServerKeys {
  readonly name: string;
  /** Whether a `quiver.tools` key names one of this server's tools (see qualifiedNames). */
  readonly ownsToolKey: (key: string) => boolean;
}

/**
 * Servers none of whose tools can be permitted under `config`, so they need not run
 * (DESIGN: MCP startup follows the permitted set). A server qualifies when a tool with no
 * entry of its own resolves off and no entry for one of its tools sets `on` or
 * `discoverable`; tools are unknown until the server runs, so only written keys count.
 * Forcing a tool (`/use`) or a conversation's `/set` starts such a server on demand.
 */
export function serversWithEveryToolOff(config: ToolsConfig, servers: readonly ServerKeys[]): Set<string> {
  const permittingKeys = [...config]
    .filter(([key, entry]) => key !== DEFAULTS_KEY && !key.endsWith('__*') && entry.availability !== undefined && entry.availability !== 'off')
    .map(([key]) => key);
  const dormant = new Set<string>();
  for (const server of servers) {
    // Named by its server's own key, a tool resolves exactly as one without an entry.
    const unlisted = resolveTool(config, { name: serverDefaultsKey(server.name), server: server.name });
    if (unlisted.availability !== 'off') continue;
    if (permittingKeys.some((key) => server.ownsToolKey(key))) continue;
    dormant.add(server.name);
  }
  return dormant;
}

/**
 * The servers whose tools `delta` (a conversation's `/set`) turns on or discoverable, by the
 * server part of each key: those must run for the change to mean anything. `*` names none.
 */
export function serversPermittedBy(delta: ToolsConfig): string[] {
  const servers = new Set<string>();
  for (const [key, entry] of delta) {
    if (entry.availability === undefined || entry.availability === 'off') continue;
    const server = key.endsWith('__*') ? key.slice(0, -'__*'.length) : serverOfQualifiedName(key);
    if (server !== undefined && server !== '') servers.add(server);
  }
  return [...servers];
}
