import { createHash } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Runs `work` while no other holder of the same key does. */
export interface RefreshLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** A lock older than this was left by a window that died mid-refresh; a refresh takes seconds. */
const STALE_MS = 30_000;
const POLL_MS = 50;
const GIVE_UP_MS = 20_000;

/**
 * Serializes refreshes of one server's tokens within this process and, with `dir`, across every
 * process sharing it (the editor's windows share their global storage folder). A rotated refresh
 * token is single-use: two windows presenting it at once would get one new token and one
 * `invalid_grant`, and the losing window would throw the user's sign-in away.
 */
export class SharedRefreshLock implements RefreshLock {
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly dir: string | undefined) {}

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.chains.get(key) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(() => this.acrossProcesses(key, work));
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    }).catch(() => undefined);
    return next;
  }

  private async acrossProcesses<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (this.dir === undefined) return work();
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`);
    await acquire(path);
    try {
      return await work();
    } finally {
      await rm(path, { recursive: true, force: true });
    }
  }
}

/** `mkdir` is atomic: exactly one process creates the folder. */
async function acquire(path: string): Promise<void> {
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    try {
      await mkdir(path);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const since = await stat(path).then((s) => s.mtimeMs, () => undefined);
    if (since !== undefined && Date.now() - since > STALE_MS) await rm(path, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error('another window has been refreshing this sign-in for too long; try again');
    else await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
