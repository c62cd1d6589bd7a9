import type { ConfigSource } from './serverConfig';

/** `off`: not started because every tool of the server is off (see McpManager.setDormant). */
export type ServerState = 'starting' | 'running' | 'failed' | 'stopped' | 'off';

/** What the UI shows for one configured server; also the payload of `onDidChangeStatus`. */
export interface ServerStatus {
  readonly name: string;
  readonly state: ServerState;
  /** Why the server is failed or stopped, including a pending automatic restart; undefined otherwise. */
  readonly reason: string | undefined;
  readonly source: ConfigSource;
  /** Tools currently in the catalogue from this server (0 unless running). */
  readonly toolCount: number;
  /** The server process of the current or last attempt (stdio only). */
  readonly pid: number | undefined;
  /** Automatic restarts since the server last ran stably or was restarted by hand. */
  readonly restarts: number;
}
