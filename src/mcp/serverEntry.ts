import type { ToolCallHooks } from '../core/elicitation';
import type { CachedCatalogue } from './catalogueCache';
import type { SignInReason } from './oauth/signInBrowser';
import type { ServerTool } from './normalizeTools';
import type { ServerConfig } from './serverConfig';
import type { ServerConnection } from './serverConnection';
import type { ServerPrompt, ServerResource } from './serverFeatures';
import type { ServerState, ServerStatus } from './serverStatus';

/** The manager's record of one configured server. */
export interface ServerEntry {
  config: ServerConfig;
  state: ServerState;
  reason: string | undefined;
  connection: ServerConnection | undefined;
  /** The live list while running; empty otherwise. */
  tools: readonly ServerTool[];
  /** When the server listed `tools`. */
  listedAt: number | undefined;
  /** The cached catalogue of the current config, listed while the server is idle or waking from idle. */
  cached: CachedCatalogue | undefined;
  /** Bumped by every (re)start and by removal; callbacks of older attempts compare and bail out. */
  generation: number;
  restarts: number;
  runningSince: number | undefined;
  retryTimer: NodeJS.Timeout | undefined;
  /** Settles (never rejects) when the current start attempt (or cache read) has an outcome. */
  attempt: Promise<void>;
  refreshing: boolean;
  refreshAgain: boolean;
  /** Started on demand (a call, a forced tool, a manual restart) although settings let it rest. */
  awake: boolean;
  /** Why the next start attempt may open a sign-in page (a start the user asked for); taken by that attempt. */
  signInReason: SignInReason | undefined;
  /** The last start reached the server with OAuth tokens. */
  signedIn: boolean;
  /** Its prompts and resources while it runs (empty otherwise). */
  prompts: readonly ServerPrompt[];
  resources: readonly ServerResource[];
  /** Hooks of the calls running now, newest last: a server's question goes to the call that asked. */
  readonly calls: ToolCallHooks[];
}

export function newEntry(config: ServerConfig): ServerEntry {
  return {
    config,
    state: 'stopped',
    reason: undefined,
    connection: undefined,
    tools: [],
    listedAt: undefined,
    cached: undefined,
    generation: 0,
    restarts: 0,
    runningSince: undefined,
    retryTimer: undefined,
    attempt: Promise.resolve(),
    refreshing: false,
    refreshAgain: false,
    awake: false,
    signInReason: undefined,
    signedIn: false,
    calls: [],
    prompts: [],
    resources: [],
  };
}

/** The tools an entry puts in the catalogue, and when they were listed; undefined when it lists none. */
export function listingOf(entry: ServerEntry): { readonly tools: readonly ServerTool[]; readonly listedAt: number | undefined } | undefined {
  if (entry.state === 'running') return { tools: entry.tools, listedAt: entry.listedAt };
  // Waking (starting with a cached catalogue) keeps the cached tools, so a second call made
  // while the first one starts the server still finds its tool.
  if (entry.state === 'idle' || entry.state === 'starting') return entry.cached;
  return undefined;
}

export function toStatus(entry: ServerEntry): ServerStatus {
  const listing = listingOf(entry);
  return {
    name: entry.config.name,
    state: entry.state,
    reason: entry.reason,
    source: entry.config.source,
    toolCount: listing?.tools.length ?? 0,
    catalogueListedAt: listing?.listedAt,
    pid: entry.connection?.pid,
    restarts: entry.restarts,
    signedIn: entry.signedIn,
  };
}
