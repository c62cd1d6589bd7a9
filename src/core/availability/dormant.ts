import { resolveTool } from './resolve';
import { DEFAULTS_KEY, serverDefaultsKey, type AllowToggle, type Availability, type ResolvedTool, type ToolsConfig } from './types';

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
  const permittingKeys = toolKeysSetting(config, (a) => a !== 'off');
  return serversWhere(servers, (server) => {
    const unlisted = unlistedToolOf(config, server);
    return unlisted.availability === 'off' && !NAMED_ON.has(unlisted.allowToggle) && !permittingKeys.some((key) => server.ownsToolKey(key));
  });
}

/**
 * Servers none of whose tools is `on` under `config` (each resolves discoverable or off), so no
 * definition of theirs is needed up front: with a cached catalogue such a server need not run
 * until one of its tools is called. As in serversWithEveryToolOff only written keys count; a
 * server every one of whose tools is off is in both sets.
 */
export function serversWithNoToolOn(config: ToolsConfig, servers: readonly ServerKeys[]): Set<string> {
  const onKeys = toolKeysSetting(config, (a) => a === 'on');
  return serversWhere(servers, (server) => unlistedToolOf(config, server).availability !== 'on' && !onKeys.some((key) => server.ownsToolKey(key)));
}

/** Of the servers left off, those `config` (a conversation's) permits a tool of: they must start. */
export function serversToStart(config: ToolsConfig, off: readonly ServerKeys[]): string[] {
  const stillOff = serversWithEveryToolOff(config, off);
  return off.filter((s) => !stillOff.has(s.name)).map((s) => s.name);
}

/** Keys of single tools (neither `*` nor `<server>__*`) whose entry sets an availability `accepts`. */
function toolKeysSetting(config: ToolsConfig, accepts: (availability: Availability) => boolean): string[] {
  return [...config]
    .filter(([key, entry]) => key !== DEFAULTS_KEY && !key.endsWith('__*') && entry.availability !== undefined && accepts(entry.availability))
    .map(([key]) => key);
}

/** How a tool of `server` with no entry of its own resolves: named by its server's own key, a tool resolves exactly as one without an entry. */
function unlistedToolOf(config: ToolsConfig, server: ServerKeys): ResolvedTool {
  return resolveTool(config, { name: serverDefaultsKey(server.name), server: server.name });
}

function serversWhere(servers: readonly ServerKeys[], test: (server: ServerKeys) => boolean): Set<string> {
  return new Set(servers.filter(test).map((s) => s.name));
}
