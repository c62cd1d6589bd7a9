import assert from 'node:assert/strict';
import { CoalescingRunner } from '../../../../src/mcp/lifecycle';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('CoalescingRunner', () => {
  it('runs one at a time; requests while running make exactly one more run', async () => {
    const releases: (() => void)[] = [];
    let runs = 0;
    let concurrent = 0;
    let most = 0;
    const runner = new CoalescingRunner(async () => {
      runs++;
      concurrent++;
      most = Math.max(most, concurrent);
      await new Promise<void>((r) => releases.push(r));
      concurrent--;
    });
    runner.request();
    runner.request();
    runner.request();
    await tick();
    assert.equal(runs, 1);
    releases.shift()?.();
    await tick();
    assert.equal(runs, 2);
    releases.shift()?.();
    await tick();
    assert.equal(runs, 2);
    assert.equal(most, 1);
    runner.request();
    await tick();
    assert.equal(runs, 3, 'a request after the runner went quiet runs again');
    releases.shift()?.();
  });
});
