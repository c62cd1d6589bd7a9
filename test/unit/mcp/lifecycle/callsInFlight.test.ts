import assert from 'node:assert/strict';
import type { AnswerElicitation } from '../../../../src/core/elicitation/elicitation';
import { CallsInFlight } from '../../../../src/mcp/lifecycle';

const answerer = (): AnswerElicitation => () => Promise.resolve({ action: 'decline' });

describe('CallsInFlight', () => {
  it('a question goes to the newest running call that listens, and to none once the calls end', async () => {
    const calls = new CallsInFlight();
    const older = answerer();
    const newer = answerer();
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => (release = r));
    assert.equal(calls.questionAnswerer(), undefined);
    const first = calls.during({ onElicitation: older }, () => gate);
    const second = calls.during({ onElicitation: newer }, () => gate);
    const third = calls.during({}, () => gate);
    assert.equal(calls.questionAnswerer(), newer, 'a call without a listener is skipped');
    release();
    await Promise.all([first, second, third]);
    assert.equal(calls.questionAnswerer(), undefined);
  });

  it('a call that throws leaves the list too, and its error reaches the caller', async () => {
    const calls = new CallsInFlight();
    await assert.rejects(calls.during({ onElicitation: answerer() }, () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(calls.questionAnswerer(), undefined);
  });
});
