import assert from 'node:assert/strict';
import { RestartBudget, restartDelay, type RestartPolicy } from '../../../../src/mcp/lifecycle';

const policy: RestartPolicy = { maxAttempts: 3, initialDelayMs: 1_000, maxDelayMs: 3_000, stableAfterMs: 60_000 };

describe('RestartBudget', () => {
  it('doubles the delay per restart up to the cap, then gives up after maxAttempts', () => {
    const budget = new RestartBudget(policy, () => 0);
    assert.deepEqual(budget.afterFailure(), { retry: true, delayMs: 1_000, note: 'Restarting in 1 s (attempt 1 of 3).' });
    assert.deepEqual(budget.afterFailure(), { retry: true, delayMs: 2_000, note: 'Restarting in 2 s (attempt 2 of 3).' });
    assert.deepEqual(budget.afterFailure(), { retry: true, delayMs: 3_000, note: 'Restarting in 3 s (attempt 3 of 3).' });
    assert.deepEqual(budget.afterFailure(), { retry: false, note: 'Gave up after 3 automatic restarts; restart the server to try again.' });
    assert.equal(budget.restarts, 3);
  });

  it('says restarts are off when the policy allows none', () => {
    const budget = new RestartBudget({ ...policy, maxAttempts: 0 }, () => 0);
    assert.deepEqual(budget.afterFailure(), { retry: false, note: 'Automatic restarts are off; restart the server to try again.' });
  });

  it('a crash after running stably, and a refill, give the whole budget back; a quick crash does not', () => {
    let now = 0;
    const budget = new RestartBudget(policy, () => now);
    budget.afterFailure();
    budget.afterFailure();
    budget.ran();
    now = 59_999;
    assert.equal(budget.afterFailure().note, 'Restarting in 3 s (attempt 3 of 3).');
    budget.ran();
    now += 60_000;
    assert.equal(budget.afterFailure().note, 'Restarting in 1 s (attempt 1 of 3).');
    budget.refill();
    assert.equal(budget.restarts, 0);
  });

  it('runs a scheduled restart once, and never after cancel or a newer schedule', async () => {
    const budget = new RestartBudget(policy);
    const ran: string[] = [];
    budget.schedule(5, () => ran.push('first'));
    budget.schedule(5, () => ran.push('second'));
    budget.schedule(5, () => ran.push('third'));
    budget.cancel();
    budget.schedule(5, () => ran.push('fourth'));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(ran, ['fourth']);
  });

  it('restartDelay: initial, doubled, capped', () => {
    assert.deepEqual([0, 1, 2, 3].map((n) => restartDelay(n, policy)), [1_000, 2_000, 3_000, 3_000]);
  });
});
