import { availableParallelism } from 'node:os';
import type { AnswerElicitation } from '../core/elicitation';
import type { McpLogger } from './logger';
import type { SignInEnvironment } from './oauth/signInBrowser';

export interface RestartPolicy {
  /** Automatic restarts after a crash before giving up (0 disables them). */
  readonly maxAttempts: number;
  /** Delay before the first restart; doubled for each further one. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A server that ran this long before crashing gets its restart budget back. */
  readonly stableAfterMs: number;
}

export interface McpManagerOptions {
  readonly logger: McpLogger;
  /** Servers configured by the workspace (settings or mcp.json) start only when this is true. */
  readonly workspaceTrusted: boolean;
  /** Spawn, handshake and first full `tools/list` must finish within this. */
  readonly startupTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  /** Bound on the text of one tool result as Quiver keeps it at all; the rest is cut with a marker. */
  readonly maxResultChars?: number;
  readonly maxDescriptionChars?: number;
  readonly maxToolPages?: number;
  readonly listChangedDebounceMs?: number;
  readonly restart?: Partial<RestartPolicy>;
  /** Servers starting at once; the rest wait their turn (see StartQueue). */
  readonly maxConcurrentStarts?: number;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /**
   * Folder of the tool catalogue cache (see CatalogueCache). Without it nothing is cached and
   * every server that is not off starts: a server can be idle only with a cached catalogue.
   */
  readonly catalogueCacheDir?: string;
  /** OAuth for remote servers (the secret store, the browser step). Without it a server that asks for sign-in fails with a 401. */
  readonly signIn?: SignInEnvironment;
  /**
   * Answers a server's question that no running call's hooks take (asked outside a chat's call);
   * the elicitation capability is declared only with it.
   */
  readonly elicitation?: AnswerElicitation;
}

export type ResolvedOptions = Required<Omit<McpManagerOptions, 'restart' | 'catalogueCacheDir' | 'signIn' | 'elicitation'>> & {
  readonly restart: RestartPolicy;
  readonly signIn: SignInEnvironment | undefined;
  readonly elicitation: AnswerElicitation | undefined;
};

export const DEFAULTS = {
  startupTimeoutMs: 60_000,
  callTimeoutMs: 300_000,
  // quiver.mcp.maxResultChars' default: the core keeps the whole and shows the model a view of it.
  maxResultChars: 10_000_000,
  maxDescriptionChars: 8_000,
  maxToolPages: 100,
  listChangedDebounceMs: 300,
  // Two per core: a Node server's start is mostly CPU with short waits on I/O. On two cores (the
  // only machine measured) the bench's sweep (4 / 8 / 16 at a time, 71 servers) listed the first
  // server and all of them soonest at 4, with the least event-loop delay. At most 8: every
  // handshake is handled on the extension host's one thread, whatever the core count.
  maxConcurrentStarts: Math.min(8, 2 * availableParallelism()),
  restart: { maxAttempts: 3, initialDelayMs: 1_000, maxDelayMs: 30_000, stableAfterMs: 60_000 },
  clientInfo: { name: 'quiver', version: '0.1.0' },
} as const;

/** Explicit `undefined` (an unset setting passed through) falls back to the default too. */
export function resolveOptions(options: McpManagerOptions): ResolvedOptions {
  const restart = options.restart ?? {};
  return {
    logger: options.logger,
    workspaceTrusted: options.workspaceTrusted,
    startupTimeoutMs: options.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs,
    callTimeoutMs: options.callTimeoutMs ?? DEFAULTS.callTimeoutMs,
    maxResultChars: options.maxResultChars ?? DEFAULTS.maxResultChars,
    maxDescriptionChars: options.maxDescriptionChars ?? DEFAULTS.maxDescriptionChars,
    maxToolPages: options.maxToolPages ?? DEFAULTS.maxToolPages,
    listChangedDebounceMs: options.listChangedDebounceMs ?? DEFAULTS.listChangedDebounceMs,
    maxConcurrentStarts: Math.max(1, options.maxConcurrentStarts ?? DEFAULTS.maxConcurrentStarts),
    clientInfo: options.clientInfo ?? DEFAULTS.clientInfo,
    signIn: options.signIn,
    elicitation: options.elicitation,
    restart: {
      maxAttempts: restart.maxAttempts ?? DEFAULTS.restart.maxAttempts,
      initialDelayMs: restart.initialDelayMs ?? DEFAULTS.restart.initialDelayMs,
      maxDelayMs: restart.maxDelayMs ?? DEFAULTS.restart.maxDelayMs,
      stableAfterMs: restart.stableAfterMs ?? DEFAULTS.restart.stableAfterMs,
    },
  };
}

/** Exponential backoff: initial, 2×, 4×, ... capped at `maxDelayMs`. */
export function restartDelay(attempt: number, policy: RestartPolicy): number {
  return Math.min(policy.initialDelayMs * 2 ** attempt, policy.maxDelayMs);
}
