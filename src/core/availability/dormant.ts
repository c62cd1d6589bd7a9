import { resolveTool } from './resolve';
import { DEFAULTS_KEY, serverDefaultsKey, type AllowToggle, type ToolsConfig } from './types';

export interface ServerKeys {
  readonly name: string;
  /** Whether a `quiver.tools` key names one of this server's tools (see qualifiedNames). */
  readonly ownsToolKey: (key: string) => boolean;
}

// "explicit" (off, allow_toggle if_named) means off until the user names a tool: naming needs
// the names, so such a server still starts and lists its tools under Off.
const NAMED_ON: ReadonlySet<AllowToggle> = new Set(['if_named', 'if_named_or_group']);

/**
 * Servers none of whose tools can be permitted under `config`, so they need not run
 * (DESIGN: MCP startup follows the permitted set). A server qualifies when a tool with no
 * entry of its own resolves off and no entry for one of its tools sets `on` or
 * `discoverable`; tools are unknown until the server runs, so only written keys count.
 * Forcing a tool (`/use`), or a conversation whose own config permits one of its tools
 * (see serversToStart), starts such a server on demand.
 */
export function serversWithEveryToolOff(config: ToolsConfig, servers: readonly ServerKeys[]): Set<string> {
  const permittingKeys = [...config]
    .filter(([key, entry]) => key !== DEFAULTS_KEY && !key.endsWith('__*') && entry.availability !== undefined && entry.availability !== 'off')
    .map(([key]) => key);
  const dormant = new Set<string>();
  for (const server of servers) {
    // Named by its server's own key, a tool resolves exactly as one without an entry.
    const unlisted = resolveTool(config, { name: serverDefaultsKey(server.name), server: server.name });
    if (unlisted.availability !== 'off' || NAMED_ON.has(unlisted.allowToggle)) continue;
    if (permittingKeys.some((key) => server.ownsToolKey(key))) continue;
    dormant.add(server.name);
  }
  return dormant;
}

/** Of the servers left off, those `config` (a conversation's) permits a tool of: they must start. */
export function serversToStart(config: ToolsConfig, off: readonly ServerKeys[]): string[] {
  const stillOff = serversWithEveryToolOff(config, off);
  return off.filter((s) => !stillOff.has(s.name)).map((s) => s.name);
}
