import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Runs `work` while no other holder of the same key does. */
export interface RefreshLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** A lock older than this was left by a window that died mid-refresh; a refresh takes seconds. */
const STALE_MS = 30_000;
const POLL_MS = 50;
const GIVE_UP_MS = 20_000;
const HEARTBEAT_MS = 5_000;
const OWNER_FILE = 'owner';

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
    const owner = randomUUID();
    await acquire(path, owner);
    // A holder that is alive keeps its lock fresh, so only a dead window's lock ever looks stale.
    const heartbeat = setInterval(() => void utimes(path, new Date(), new Date()).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    try {
      return await work();
    } finally {
      clearInterval(heartbeat);
      if ((await ownerOf(path)) === owner) await rm(path, { recursive: true, force: true });
    }
  }
}

/** `mkdir` is atomic: exactly one process creates the folder; the owner file inside says whose it is. */
async function acquire(path: string, owner: string): Promise<void> {
  const deadline = Date.now() + GIVE_UP_MS;
  for (;;) {
    try {
      await mkdir(path);
      await writeFile(join(path, OWNER_FILE), owner);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stale = await staleOwner(path);
    if (stale !== undefined) await takeOver(path, stale);
    else if (Date.now() > deadline) throw new Error('another window has been refreshing this sign-in for too long; try again');
    else await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** The owner of a lock nobody has refreshed for STALE_MS; undefined while it is live (or gone). */
async function staleOwner(path: string): Promise<string | undefined> {
  const since = await stat(path).then((s) => s.mtimeMs, () => undefined);
  if (since === undefined || Date.now() - since <= STALE_MS) return undefined;
  return (await ownerOf(path)) ?? '';
}

/**
 * Moves a dead holder's lock aside before deleting it, and only while it is still that holder's:
 * two waiters that both saw it stale must not delete the lock the first of them took since.
 */
async function takeOver(path: string, staleOwnerId: string): Promise<void> {
  if (((await ownerOf(path)) ?? '') !== staleOwnerId) return;
  const aside = `${path}.${randomUUID()}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  await rm(aside, { recursive: true, force: true });
}

async function ownerOf(path: string): Promise<string | undefined> {
  return readFile(join(path, OWNER_FILE), 'utf8').catch(() => undefined);
}
