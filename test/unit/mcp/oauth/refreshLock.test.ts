import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SharedRefreshLock } from '../../../../src/mcp/oauth';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Work that logs its start and end and finishes when released. */
function gated(log: string[], name: string): { work: () => Promise<string>; release: () => void } {
  let release = (): void => undefined;
  const done = new Promise<void>((r) => (release = r));
  return {
    work: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
    release: () => release(),
  };
}

/** Where the lock keeps the folder for `key` (the implementation's naming). */
const lockPath = (dir: string, key: string): string => join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.lock`);

describe('SharedRefreshLock', () => {
  let dir: string;

  beforeEach(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'quiver-lock-')), 'locks');
  });

  afterEach(async () => {
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  for (const shared of [false, true]) {
    it(`serializes work for one key, in order${shared ? ' (with a folder)' : ' (in process only)'}`, async () => {
      const lock = new SharedRefreshLock(shared ? dir : undefined);
      const log: string[] = [];
      const [a, b, c] = ['a', 'b', 'c'].map((n) => gated(log, n));
      const results = [lock.run('k', a!.work), lock.run('k', b!.work), lock.run('k', c!.work)];
      await sleep(30);
      assert.deepEqual(log, ['start a']);
      a!.release();
      b!.release();
      c!.release();
      assert.deepEqual(await Promise.all(results), ['a', 'b', 'c']);
      assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    });
  }

  it('runs different keys concurrently', async () => {
    const lock = new SharedRefreshLock(dir);
    const log: string[] = [];
    const x = gated(log, 'x');
    const y = gated(log, 'y');
    const results = [lock.run('server-x', x.work), lock.run('server-y', y.work)];
    await sleep(50);
    assert.deepEqual(log.sort(), ['start x', 'start y']);
    y.release();
    x.release();
    assert.deepEqual(await Promise.all(results), ['x', 'y']);
  });

  it('excludes another instance on the same folder (another window)', async () => {
    const windowA = new SharedRefreshLock(dir);
    const windowB = new SharedRefreshLock(dir);
    const log: string[] = [];
    const a = gated(log, 'a');
    const b = gated(log, 'b');
    const ranA = windowA.run('k', a.work);
    await sleep(20);
    const ranB = windowB.run('k', b.work);
    b.release();
    await sleep(200);
    assert.deepEqual(log, ['start a']);
    assert.deepEqual(await readdir(dir), [lockPath(dir, 'k').slice(dir.length + 1)]);
    a.release();
    assert.deepEqual(await Promise.all([ranA, ranB]), ['a', 'b']);
    assert.deepEqual(log, ['start a', 'end a', 'start b', 'end b']);
    assert.deepEqual(await readdir(dir), []);
  });

  it('takes over a lock folder left by a window that died (older than 30 s)', async () => {
    await mkdir(lockPath(dir, 'k'), { recursive: true });
    const old = new Date(Date.now() - 31_000);
    await utimes(lockPath(dir, 'k'), old, old);
    const started = Date.now();
    assert.equal(await new SharedRefreshLock(dir).run('k', () => Promise.resolve('mine')), 'mine');
    assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
    assert.deepEqual(await readdir(dir), []);
  });

  it('waits for a fresh lock folder rather than taking it over', async () => {
    await mkdir(lockPath(dir, 'k'), { recursive: true });
    let ran = false;
    const run = new SharedRefreshLock(dir).run('k', () => {
      ran = true;
      return Promise.resolve('after');
    });
    await sleep(200);
    assert.equal(ran, false);
    await rm(lockPath(dir, 'k'), { recursive: true });
    assert.equal(await run, 'after');
    assert.equal(ran, true);
  });

  it('releases the lock when the work fails', async () => {
    const lock = new SharedRefreshLock(dir);
    await assert.rejects(lock.run('k', () => Promise.reject(new Error('token endpoint down'))), /token endpoint down/);
    assert.deepEqual(await readdir(dir), []);
    assert.equal(await lock.run('k', () => Promise.resolve('next')), 'next');
    const other = new SharedRefreshLock(dir);
    const started = Date.now();
    assert.equal(await other.run('k', () => Promise.resolve('other')), 'other');
    assert.ok(Date.now() - started < 1_000);
  });

  it('keeps serializing after a failure queued behind running work', async () => {
    const lock = new SharedRefreshLock(undefined);
    const log: string[] = [];
    const a = gated(log, 'a');
    const first = lock.run('k', a.work);
    const failing = lock.run('k', () => {
      log.push('fail');
      return Promise.reject(new Error('boom'));
    });
    const third = lock.run('k', () => {
      log.push('third');
      return Promise.resolve(3);
    });
    a.release();
    assert.equal(await first, 'a');
    await assert.rejects(failing, /boom/);
    assert.equal(await third, 3);
    assert.deepEqual(log, ['start a', 'end a', 'fail', 'third']);
  });
});
