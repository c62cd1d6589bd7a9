import assert from 'node:assert/strict';
import {
  availabilityChanges, changesOutside, enableEdits, serverToggleChanges, serverToggleConfirmation, type ScopedValues,
} from '../../../src/core/availability';

// The demo's quiver.tools (demo/.vscode/settings.json), as the issue found it: git's row under Off
// holds git_push and git_commit, while git_status is under On and git_log under Discoverable.
const demo: ScopedValues = {
  workspace: {
    '*': { enable: 'discoverable' },
    git__git_push: { enable: 'off' },
    git__git_commit: { enable: 'explicit' },
    git__git_status: { enable: 'on' },
  },
};
const gitTools = ['git__git_commit', 'git__git_log', 'git__git_push', 'git__git_status'].map((name) => ({ name, server: 'git' }));
const written = ['git__git_push', 'git__git_commit', 'git__git_status'];

describe('what a toggle changes, before it is written', () => {
  it('Make Discoverable on git under Off also moves git_status, which is under On', () => {
    const changes = serverToggleChanges(demo, 'workspace', 'git', written, gitTools, 'discoverable');
    assert.deepEqual(changes, [
      { name: 'git__git_commit', from: 'off', to: 'discoverable' },
      { name: 'git__git_push', from: 'off', to: 'discoverable' },
      { name: 'git__git_status', from: 'on', to: 'discoverable' },
    ]);
    assert.deepEqual(changesOutside(changes, 'off'), [{ name: 'git__git_status', from: 'on', to: 'discoverable' }]);
  });

  it('the modal names the server, lists the tools outside the group apart from those in it, and where it writes', () => {
    const changes = serverToggleChanges(demo, 'workspace', 'git', written, gitTools, 'discoverable');
    assert.deepEqual(serverToggleConfirmation('git', 'discoverable', 'off', changes, 'workspace'), {
      message: 'Make every tool of git discoverable? This also changes 1 tool not under Off.',
      detail: "Not under Off:\ngit__git_status: on → discoverable\n\nUnder Off:\ngit__git_commit: off → discoverable\ngit__git_push: off → discoverable\n\nWritten to this workspace's settings.",
      action: 'Make Discoverable',
    });
  });

  it('a toggle that stays within its group changes nothing outside it: no question', () => {
    const changes = serverToggleChanges(demo, 'workspace', 'git', written, gitTools, 'off');
    assert.deepEqual(changesOutside(changes, 'off').map((c) => c.name), ['git__git_log', 'git__git_status'], 'Make Off from under Off still moves the others');
    const memory: ScopedValues = { workspace: { '*': { enable: 'discoverable' }, memory__delete: { enable: 'off' } } };
    const tools = [{ name: 'memory__read', server: 'memory' }, { name: 'memory__delete', server: 'memory' }];
    assert.deepEqual(changesOutside(serverToggleChanges(memory, 'workspace', 'memory', ['memory__delete'], tools, 'off'), 'discoverable'), []);
  });

  it('a locked tool that inherits its availability from the server entry is listed when the server entry moves it', () => {
    const values: ScopedValues = { user: { 'gh__*': { enable: 'on' }, gh__admin: { enable: { allow_toggle: 'never' } } } };
    const changes = serverToggleChanges(values, 'user', 'gh', [], [{ name: 'gh__admin', server: 'gh' }], 'off');
    assert.deepEqual(changes, [{ name: 'gh__admin', from: 'on', to: 'off' }]);
  });

  it('availabilityChanges of any edits: a tool entry edit changes only that tool', () => {
    const edits = enableEdits(demo, 'workspace', { name: 'git__git_log', server: 'git' }, 'on');
    assert.deepEqual(availabilityChanges(demo, 'workspace', edits, gitTools), [{ name: 'git__git_log', from: 'discoverable', to: 'on' }]);
  });

  it('a long list is cut in the modal with a count of the rest', () => {
    const many = Array.from({ length: 15 }, (_, i) => ({ name: `big__t${String(i).padStart(2, '0')}`, from: 'on' as const, to: 'off' as const }));
    const ask = serverToggleConfirmation('big', 'off', 'discoverable', many, 'user');
    assert.match(ask.detail, /big__t11: on → off\n… and 3 more\n\nWritten to your User settings\.$/);
    assert.equal(ask.message, 'Make every tool of big off? This also changes 15 tools not under Discoverable.');
  });
});
