import assert from 'node:assert/strict';
import { StartupTimeout, withDeadline } from '../../../../src/mcp/lifecycle';

describe('withDeadline', () => {
  it('passes through work that finishes in time, and its failure', async () => {
    assert.equal(await withDeadline(Promise.resolve('up'), 1_000), 'up');
    await assert.rejects(withDeadline(Promise.reject(new Error('ENOENT')), 1_000), /ENOENT/);
  });

  it('rejects with a StartupTimeout naming the limit when the work outlives it', async () => {
    const never = new Promise<string>(() => undefined);
    await assert.rejects(withDeadline(never, 100), (error: unknown) => {
      assert.ok(error instanceof StartupTimeout);
      assert.equal(error.timeoutMs, 100);
      assert.equal(error.message, 'did not finish starting within 0.1 s');
      return true;
    });
  });
});
