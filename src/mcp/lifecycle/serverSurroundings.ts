import type { AnswerElicitation } from '../../core/elicitation';
import type { CatalogueCache } from '../catalogue/catalogueCache';
import type { McpLogger } from '../common/logger';
import type { RestingServers } from '../config/restingServers';
import type { SignInEnvironment } from '../oauth/signInBrowser';
import type { RestartPolicy } from './restartBudget';
import type { StartQueue } from './startQueue';
import type { ServerStatus } from './serverStatus';

/** The settings every server runs with (see McpManagerOptions for each). */
export interface ServerOptions {
  readonly logger: McpLogger;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly startupTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly maxResultChars: number;
  readonly maxDescriptionChars: number;
  readonly maxToolPages: number;
  readonly listChangedDebounceMs: number;
  readonly restart: RestartPolicy;
  readonly signIn: SignInEnvironment | undefined;
  readonly elicitation: AnswerElicitation | undefined;
}

/** What one server shares with the others and learns from the manager that routes to them. */
export interface ServerSurroundings {
  readonly options: ServerOptions;
  /** Starts wait their turn here (see StartQueue). */
  readonly starts: StartQueue;
  /** Where catalogues are kept between launches; without it no server idles. */
  readonly cache: CatalogueCache | undefined;
  /** The servers settings let rest now. */
  resting(): RestingServers;
  /** Workspace-configured servers may run. */
  trusted(): boolean;
  /** Quiver is shutting down: nothing starts again. */
  shuttingDown(): boolean;
  statusChanged(status: ServerStatus): void;
  /** What the server lists (tools, prompts, resources) changed. */
  listingChanged(): void;
}
