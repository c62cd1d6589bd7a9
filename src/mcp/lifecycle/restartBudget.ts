import { formatSeconds } from '../common/errorText';

export interface RestartPolicy {
  /** Automatic restarts after a crash before giving up (0 disables them). */
  readonly maxAttempts: number;
  /** Delay before the first restart; doubled for each further one. */
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** A server that ran this long before crashing gets its restart budget back. */
  readonly stableAfterMs: number;
}

/** Exponential backoff: initial, 2×, 4×, ... capped at `maxDelayMs`. */
export function restartDelay(attempt: number, policy: RestartPolicy): number {
  return Math.min(policy.initialDelayMs * 2 ** attempt, policy.maxDelayMs);
}

/** After a failure: try again in `delayMs`, or give up; `note` goes under the failure's reason. */
export type RestartDecision = { readonly retry: true; readonly delayMs: number; readonly note: string } | { readonly retry: false; readonly note: string };

/**
 * The automatic restarts of one server: how many it used since it last ran stably or was
 * started by hand, and the one pending. A restart never runs after `cancel()`.
 */
export class RestartBudget {
  private used = 0;
  private runningSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly policy: RestartPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** Automatic restarts since the server last ran stably or was restarted by hand. */
  get restarts(): number {
    return this.used;
  }

  /** A start someone asked for (by hand, a config edit, a call) gets the whole budget. */
  refill(): void {
    this.used = 0;
  }

  /** The server came up: a crash long enough after this refills the budget. */
  ran(): void {
    this.runningSince = this.now();
  }

  /** Spends one restart if any is left, and says so. */
  afterFailure(): RestartDecision {
    const policy = this.policy;
    if (this.runningSince !== undefined && this.now() - this.runningSince >= policy.stableAfterMs) this.used = 0;
    this.runningSince = undefined;
    if (this.used >= policy.maxAttempts) {
      const tries = policy.maxAttempts === 0 ? 'Automatic restarts are off' : `Gave up after ${policy.maxAttempts} automatic restarts`;
      return { retry: false, note: `${tries}; restart the server to try again.` };
    }
    const delayMs = restartDelay(this.used, policy);
    this.used++;
    return { retry: true, delayMs, note: `Restarting in ${formatSeconds(delayMs)} (attempt ${this.used} of ${policy.maxAttempts}).` };
  }

  /** Runs `restart` after `delayMs`, unless cancelled first; it keeps no process alive. */
  schedule(delayMs: number, restart: () => void): void {
    this.cancel();
    this.timer = setTimeout(restart, delayMs);
    this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
