import type { CachedCatalogue } from '../catalogue/catalogueCache';
import type { ServerTool } from '../catalogue/normalizeTools';
import type { ServerConfig } from '../config/serverConfig';
import type { ServerState, ServerStatus } from './serverStatus';

/** What one server shows of itself at a moment: the facts its status and listing are read from. */
export interface ServerFacts {
  readonly config: ServerConfig;
  readonly state: ServerState;
  readonly reason: string | undefined;
  /** The live list while running; empty otherwise. */
  readonly tools: readonly ServerTool[];
  /** When the server listed `tools`. */
  readonly listedAt: number | undefined;
  /** The cached catalogue of the current config, listed while the server is idle or waking from idle. */
  readonly cached: CachedCatalogue | undefined;
  readonly pid: number | undefined;
  readonly restarts: number;
  readonly signedIn: boolean;
}

export interface Listing {
  readonly tools: readonly ServerTool[];
  readonly listedAt: number | undefined;
}

/** The tools a server puts in the catalogue, and when they were listed; undefined when it lists none. */
export function listingOf(facts: ServerFacts): Listing | undefined {
  if (facts.state === 'running') return { tools: facts.tools, listedAt: facts.listedAt };
  // Waking (starting with a cached catalogue) keeps the cached tools, so a second call made
  // while the first one starts the server still finds its tool.
  if (facts.state === 'idle' || facts.state === 'starting') return facts.cached;
  return undefined;
}

export function toStatus(facts: ServerFacts): ServerStatus {
  const listing = listingOf(facts);
  return {
    name: facts.config.name,
    state: facts.state,
    reason: facts.reason,
    source: facts.config.source,
    toolCount: listing?.tools.length ?? 0,
    catalogueListedAt: listing?.listedAt,
    pid: facts.pid,
    restarts: facts.restarts,
    signedIn: facts.signedIn,
  };
}
