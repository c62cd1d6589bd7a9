import assert from 'node:assert/strict';
import { StartQueue } from '../../../src/mcp/lifecycle';

/** A task that records when it runs and finishes only when released. */
function gated(log: string[], name: string): { task: () => Promise<string>; release: () => void } {
  let release = (): void => undefined;
  const done = new Promise<void>((r) => (release = r));
  return { task: async () => { log.push(`start ${name}`); await done; log.push(`end ${name}`); return name; }, release: () => release() };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('StartQueue', () => {
  it('runs at most `limit` at once, in order, the next as soon as one ends', async () => {
    const log: string[] = [];
    const q = new StartQueue(2);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gated(log, n));
    const results = [q.run('a', a!.task, false), q.run('b', b!.task, false), q.run('c', c!.task, false)];
    await tick();
    assert.deepEqual(log, ['start a', 'start b']);
    a!.release();
    await tick();
    assert.deepEqual(log, ['start a', 'start b', 'end a', 'start c']);
    b!.release();
    c!.release();
    assert.deepEqual(await Promise.all(results), ['a', 'b', 'c']);
  });

  it('an urgent start and a hurried one go before those already waiting', async () => {
    const log: string[] = [];
    const q = new StartQueue(1);
    const tasks = Object.fromEntries(['first', 'x', 'y', 'now'].map((n) => [n, gated(log, n)]));
    const all = [q.run('first', tasks['first']!.task, false), q.run('x', tasks['x']!.task, false), q.run('y', tasks['y']!.task, false)];
    q.hurry('y');
    all.push(q.run('now', tasks['now']!.task, true));
    for (const t of Object.values(tasks)) t.release();
    await Promise.all(all);
    assert.deepEqual(log.filter((l) => l.startsWith('start')), ['start first', 'start now', 'start y', 'start x']);
  });

  it('a failing task frees its slot', async () => {
    const q = new StartQueue(1);
    await assert.rejects(q.run('bad', () => Promise.reject(new Error('no')), false), /no/);
    assert.equal(await q.run('good', () => Promise.resolve('ok'), false), 'ok');
  });
});
