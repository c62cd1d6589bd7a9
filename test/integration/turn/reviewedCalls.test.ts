import assert from 'node:assert/strict';
import type { FileChange } from '../../../src/core/edits';
import type { CallReview } from '../../../src/core/tools/toolSource';
import { reply, text, toolUse } from '../../fixtures/scriptedMessagesApi';
import { harness, lastToolResults, ScriptedApprover, signal, type Harness } from './harness';

const change: FileChange = { kind: 'edit', path: '/ws/src/a.ts', label: 'src/a.ts', before: 'one\n', after: 'two\n' };
const edited = { content: [{ type: 'text' as const, text: 'Applied and saved: edited src/a.ts (+1 −1).' }], isError: false, changes: [change] };
const review = (mustAsk: string | null): CallReview => ({ kind: 'review', changes: [{ label: 'src/a.ts', kind: 'edit', added: 1, removed: 1, fromLabel: null }], mustAsk });

/**
 * Calls whose source reviews them first (the editor's own tools): what they would change reaches
 * the approval, a refusal answers at once, a rejection's reason reaches the model, and the files
 * a call changed are recorded in the stream as the turn's checkpoint.
 */
describe('reviewed calls: approval with a diff, rejection with a reason, the checkpoint in the stream', function () {
  this.timeout(10_000);
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  it('the approval carries the files the call would change; accepted, its changes are recorded with its result', async () => {
    h = await harness({
      servers: { editor: { running: true, tools: [{ name: 'edit_file', review: () => review(null), handler: () => Promise.resolve(edited) }] } },
      script: [reply(toolUse('e1', 'editor__edit_file', { arg: 'x' })), reply(text('Done.'))],
    });
    await h.session.send('edit it', signal());
    assert.deepEqual(h.approver.asked.map((a) => a.review), [{ changes: [{ label: 'src/a.ts', kind: 'edit', added: 1, removed: 1, fromLabel: null }], mustAsk: null }]);
    const result = h.conversation.events().find((e) => e.type === 'tool_result');
    assert.deepEqual(result?.type === 'tool_result' ? result.changes : undefined, [change]);
    assert.match(lastToolResults(h.api.requests[1]?.body)[0]?.text ?? '', /Applied and saved: edited src\/a\.ts/);
  });

  it('rejected with a reason: nothing runs, and the model reads that the change was rejected and why', async () => {
    h = await harness({
      servers: { editor: { running: true, tools: [{ name: 'edit_file', review: () => review(null), handler: () => Promise.resolve(edited) }] } },
      approver: new ScriptedApprover([{ answer: 'deny', reason: 'keep the old name' }]),
      script: [reply(toolUse('e1', 'editor__edit_file', { arg: 'x' })), reply(text('Understood.'))],
    });
    await h.session.send('edit it', signal());
    assert.deepEqual(h.source.calls, []);
    const seen = lastToolResults(h.api.requests[1]?.body)[0];
    assert.equal(seen?.isError, true);
    assert.equal(seen?.text, 'The user rejected this change (src/a.ts); nothing was applied. The user said: "keep the old name" Do not make the same change again; follow what the user said, or ask.');
  });

  it('a call that must ask asks even when its run policy is unattended, and "always allow" counts once only', async () => {
    h = await harness({
      servers: { editor: { running: true, tools: [{ name: 'edit_file', review: () => review('it changes Quiver\'s own settings (quiver.tools) in settings.json'), handler: () => Promise.resolve(edited) }] } },
      tools: { editor__edit_file: { run: 'unattended' } },
      approver: new ScriptedApprover(['always_allow', 'deny']),
      script: [reply(toolUse('e1', 'editor__edit_file', { arg: 'x' })), reply(toolUse('e2', 'editor__edit_file', { arg: 'y' })), reply(text('ok'))],
    });
    await h.session.send('widen your permissions', signal());
    assert.equal(h.approver.asked.length, 2, 'asked both times, whatever the policy and the first answer');
    assert.equal(h.approver.asked[0]?.review?.mustAsk, 'it changes Quiver\'s own settings (quiver.tools) in settings.json');
    assert.deepEqual(h.live.alwaysAllowed, [], 'nothing written to settings for a call that must ask');
    assert.equal(h.source.calls.length, 1);
  });

  it('a call its source refuses is answered with the reason at once: nobody is asked, nothing runs', async () => {
    h = await harness({
      servers: { editor: { running: true, tools: [{ name: 'edit_file', review: () => ({ kind: 'refused', reason: 'Nothing was changed: "old_string" was not found in src/a.ts.' }), handler: () => Promise.resolve(edited) }] } },
      script: [reply(toolUse('e1', 'editor__edit_file', { arg: 'x' })), reply(text('I will read it first.'))],
    });
    await h.session.send('edit it', signal());
    assert.deepEqual(h.approver.asked, []);
    assert.deepEqual(h.source.calls, []);
    const seen = lastToolResults(h.api.requests[1]?.body)[0];
    assert.deepEqual([seen?.isError, seen?.text], [true, 'Nothing was changed: "old_string" was not found in src/a.ts.']);
  });
});
