import assert from 'node:assert/strict';
import type { StreamEvent } from '../../../src/core/stream/events';
import { failedMessages, retryableMessage } from '../../../src/core/stream/failedMessages';

const at = '2026-12-01T00:00:00.000Z';

describe('failed messages and their causes', () => {
  it('maps each message not sent to the cause its turn recorded; one from before causes were recorded has none', () => {
    const events: StreamEvent[] = [
      { type: 'turn_start', at },
      { type: 'user_message', text: 'one', at },
      { type: 'turn_end', reason: 'error', message: 'Could not reach …', cause: 'could not reach http://127.0.0.1:9 (connection refused)', at },
      { type: 'turn_start', at },
      { type: 'user_message', text: 'two', at },
      { type: 'turn_end', reason: 'error', message: 'old stream', at },
      { type: 'turn_start', at },
      { type: 'user_message', text: 'three', at },
      { type: 'assistant_message', content: [{ type: 'text', text: 'hi' }], stopReason: 'end_turn', at },
      { type: 'turn_end', reason: 'error', message: 'failed later', cause: 'the API had an internal error (500)', at },
    ];
    assert.deepEqual([...failedMessages(events)], [[1, 'could not reach http://127.0.0.1:9 (connection refused)'], [4, undefined]]);
  });

  it('a message can be retried, edited or dropped while it is not sent and still shown', () => {
    const failed: StreamEvent[] = [{ type: 'turn_start', at }, { type: 'user_message', text: 'one', at }, { type: 'turn_end', reason: 'error', cause: 'the API refused it (400)', at }];
    assert.equal(retryableMessage(failed, 1), failed[1]);
    assert.equal(retryableMessage(failed, 0), undefined, 'not a message');
    assert.equal(retryableMessage([...failed, { type: 'message_dropped', index: 1, at }], 1), undefined, 'dropped');
    const answered: StreamEvent[] = [{ type: 'turn_start', at }, { type: 'user_message', text: 'one', at }, { type: 'turn_end', reason: 'done', at }];
    assert.equal(retryableMessage(answered, 1), undefined, 'sent');
  });
});
