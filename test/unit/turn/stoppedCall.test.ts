import assert from 'node:assert/strict';
import { streamEventSchema } from '../../../src/core/stream/eventSchema';
import type { StreamEvent } from '../../../src/core/stream/events';
import { stoppedWhileRunningText } from '../../../src/core/turn/executeCalls';

const at = '2026-12-01T00:00:00.000Z';

describe('a call stopped while it was running (issue 30)', () => {
  it('tells the model it may have had effects, with the progress its server last reported', () => {
    assert.equal(
      stoppedWhileRunningText('fs__copy_tree', { progress: 3, total: 20, message: 'copying src/b' }),
      'The call was stopped by the user while it was running; it may have had effects (fs__copy_tree had started, and was stopped before it returned a result). Its last progress report was 3 of 20 (copying src/b). Check the current state before running it again, and do not run it again unless the user asks.',
    );
    assert.match(stoppedWhileRunningText('x__y', { progress: 7, total: undefined, message: undefined }), /Its last progress report was 7\. Check/);
    assert.doesNotMatch(stoppedWhileRunningText('x__y', undefined), /progress/);
  });

  it('the stream reads the new fields, and lines written before them', () => {
    const old: StreamEvent = { type: 'tool_result', toolUseId: 't1', name: 'fs__copy', content: [{ type: 'text', text: 'The tool call was cancelled by the user.' }], isError: true, notRun: 'cancelled', at };
    const search: StreamEvent = { type: 'tool_result', toolUseId: 's1', name: 'search_tools', content: [{ type: 'text', text: '{}' }], isError: false, found: [], at };
    assert.equal(streamEventSchema.safeParse(old).success, true);
    assert.equal(streamEventSchema.safeParse(search).success, true);
    assert.equal(streamEventSchema.safeParse({ ...old, notRun: undefined, stopped: true }).success, true);
    assert.equal(streamEventSchema.safeParse({ ...search, alreadyLoaded: ['fixture__whoami'] }).success, true);
    assert.equal(streamEventSchema.safeParse({ ...old, stopped: false }).success, false, 'stopped is a flag: present and true, or absent');
  });
});
