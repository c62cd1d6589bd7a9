import type { ConfigSource } from '../config/serverConfig';

/**
 * `off`: not started because every tool of the server is off (see RestingServers.off).
 * `idle`: not started because none of its tools is on; its tools are listed from the catalogue it
 * last listed (cached on disk), and the first call of one of them starts it (see RestingServers.idle).
 * `signin`: the server asks for OAuth and Quiver holds no usable sign-in; Sign In starts it.
 */
export type ServerState = 'starting' | 'running' | 'failed' | 'stopped' | 'off' | 'idle' | 'signin';

/** What the UI shows for one configured server; also the payload of `onDidChangeStatus`. */
export interface ServerStatus {
  readonly name: string;
  readonly state: ServerState;
  /** Why the server is not running (failed, stopped, off or idle), including a pending automatic restart; undefined otherwise. */
  readonly reason: string | undefined;
  readonly source: ConfigSource;
  /** Tools currently in the catalogue from this server: its live list while running, its cached one while idle or waking from idle. */
  readonly toolCount: number;
  /** When the server listed the tools counted in `toolCount` (ms since the epoch); for an idle server, the date of its cached catalogue. */
  readonly catalogueListedAt: number | undefined;
  /** The server process of the current or last attempt (stdio only). */
  readonly pid: number | undefined;
  /** Automatic restarts since the server last ran stably or was restarted by hand. */
  readonly restarts: number;
  /** True while Quiver reaches the server with OAuth tokens it holds (Sign Out applies). */
  readonly signedIn: boolean;
}
