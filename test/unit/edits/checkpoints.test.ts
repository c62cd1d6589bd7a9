import assert from 'node:assert/strict';
import { filesTouched, inverseChange, turnCheckpoint, undoChanges, undoneText, unifiedDiff, type FileChange } from '../../../src/core/edits';
import { transcriptOf } from '../../../src/core/stream/transcript';
import type { StreamEvent } from '../../../src/core/stream/events';

const at = '2026-12-02T00:00:00.000Z';
const edit: FileChange = { kind: 'edit', path: '/ws/a.ts', label: 'a.ts', before: 'one\ntwo\n', after: 'one\n2\nthree\n' };
const created: FileChange = { kind: 'create', path: '/ws/b.ts', label: 'b.ts', after: 'new\n' };
const moved: FileChange = { kind: 'rename', path: '/ws/d.ts', label: 'd.ts', fromPath: '/ws/c.ts', fromLabel: 'c.ts', text: '' };

function turn(calls: readonly { id: string; changes?: readonly FileChange[] }[]): StreamEvent[] {
  return [
    { type: 'turn_start', at },
    { type: 'user_message', text: 'change them', at },
    { type: 'assistant_message', content: calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: 'editor__edit_file', input: {} })), stopReason: 'tool_use', at },
    ...calls.map((c): StreamEvent => ({ type: 'tool_result', toolUseId: c.id, name: 'editor__edit_file', content: [{ type: 'text', text: 'Applied' }], isError: false, ...(c.changes ? { changes: c.changes } : {}), at })),
    { type: 'turn_end', reason: 'done', at },
  ];
}

describe('a turn\'s checkpoint and its undo', () => {
  it('collects the changes of the turn\'s calls in order', () => {
    const events = [...turn([{ id: 'old', changes: [edit] }]), ...turn([{ id: 't1', changes: [edit] }, { id: 't2' }, { id: 't3', changes: [created, moved] }])];
    const checkpoint = turnCheckpoint(events, events.length - 1);
    assert.deepEqual(checkpoint.toolUseIds, ['t1', 't3']);
    assert.deepEqual(checkpoint.changes, [edit, created, moved]);
  });

  it('undo applies each change\'s inverse, latest first', () => {
    assert.deepEqual(undoChanges({ toolUseIds: ['x'], changes: [edit, created, moved] }), [
      { kind: 'rename', path: '/ws/c.ts', label: 'c.ts', fromPath: '/ws/d.ts', fromLabel: 'd.ts', text: '' },
      { kind: 'delete', path: '/ws/b.ts', label: 'b.ts', before: 'new\n' },
      { ...edit, before: edit.after, after: edit.before },
    ]);
    assert.deepEqual(inverseChange(inverseChange(edit)), edit);
  });

  it('an undone turn has nothing left to undo, after a reload too (the stream alone decides)', () => {
    const events: StreamEvent[] = [...turn([{ id: 't1', changes: [edit] }]), { type: 'changes_undone', toolUseIds: ['t1'], restored: ['a.ts'], skipped: [], at }];
    assert.deepEqual(turnCheckpoint(events, 4).toolUseIds, []);
  });

  it('the model is told of the undo with the next message, after the turn it undid (append-only)', () => {
    const undone: Extract<StreamEvent, { type: 'changes_undone' }> = { type: 'changes_undone', toolUseIds: ['t1'], restored: ['a.ts'], skipped: [{ label: 'b.ts', why: 'b.ts changed since' }], at };
    const events: StreamEvent[] = [...turn([{ id: 't1', changes: [edit, created] }]), undone, { type: 'turn_start', at }, { type: 'user_message', text: 'next', at }];
    const last = transcriptOf(events).at(-1);
    assert.equal(last?.role, 'user');
    const texts = last?.role === 'user' ? last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [];
    assert.deepEqual(texts, [undoneText(undone), 'next']);
    assert.match(texts[0] ?? '', /Restored as they were before: a\.ts\. Left as they are: b\.ts \(b\.ts changed since\)/);
  });

  it('a summary row per file with lines added and removed; a unified diff of what was applied', () => {
    assert.deepEqual(filesTouched([edit, created, { ...edit, before: edit.after, after: 'one\n' }]), [
      { label: 'a.ts', kind: 'edit', added: 2, removed: 3, fromLabel: null },
      { label: 'b.ts', kind: 'create', added: 1, removed: 0, fromLabel: null },
    ]);
    assert.equal(unifiedDiff(edit), '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,3 @@\n one\n-two\n+2\n+three');
    assert.match(unifiedDiff(created), /^--- \/dev\/null\n\+\+\+ b\/b\.ts/);
  });
});
