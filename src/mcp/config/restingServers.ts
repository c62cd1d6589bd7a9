import { serversWithEveryToolOff, serversWithNoToolOn, type ToolsConfig } from '../../core/availability';
import { ownsToolKey } from '../catalogue/qualifiedNames';

/**
 * The servers `quiver.tools` lets rest, by name (see serversWithEveryToolOff and
 * serversWithNoToolOn). A name may be in both sets: `off` wins.
 */
export interface RestingServers {
  /** Every tool off: not started and nothing listed (state `off`) until one is needed by name. */
  readonly off: ReadonlySet<string>;
  /**
   * No tool on: not started while a cached catalogue lists its tools (state `idle`); the first
   * call of one of them starts it. Without a cached catalogue it starts like any other.
   */
  readonly idle: ReadonlySet<string>;
}

export const NONE_RESTING: RestingServers = { off: new Set(), idle: new Set() };

/** What `config` lets rest among `servers`; a server named in `eager` (quiver.mcp.eagerServers) is never idle. */
export function restingServers(config: ToolsConfig, servers: readonly { readonly name: string }[], eager: readonly string[]): RestingServers {
  const keys = servers.map((s) => ({ name: s.name, ownsToolKey: ownsToolKey(s.name) }));
  const alwaysStarted = new Set(eager);
  return {
    off: serversWithEveryToolOff(config, keys),
    idle: new Set([...serversWithNoToolOn(config, keys)].filter((name) => !alwaysStarted.has(name))),
  };
}
