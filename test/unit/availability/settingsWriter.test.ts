import assert from 'node:assert/strict';
import {
  applySettingsEdit, enableEdits, parseToolsConfig, resolveTool, runEdits, scopeForToolKey, serverEnableEdits,
  type Availability, type ScopedValues, type SettingsEdit,
} from '../../../src/core/availability';

const tool = (name: string, server: string | undefined = 'gh'): { name: string; server: string | undefined } => ({ name, server });
const inWorkspace = (tools: unknown): ScopedValues => ({ workspace: tools });
const applied = (tools: unknown, edits: readonly SettingsEdit[]): unknown => edits.reduce<unknown>(applySettingsEdit, tools);

function edits(tools: unknown, key: string, availability: Availability): SettingsEdit[] {
  return enableEdits(inWorkspace(tools), 'workspace', tool(key), availability);
}

describe('writing a tool\'s enable: the shortest form that means it', () => {
  it('a new entry under "*": "discoverable" is the shorthand "on", not a table', () => {
    assert.deepEqual(edits({ '*': { enable: 'discoverable' } }, 'gh__a', 'on'), [{ path: ['gh__a', 'enable'], value: 'on' }]);
  });

  it('a table with only availability becomes the shorthand when allow_toggle resolves to any', () => {
    assert.deepEqual(edits({ '*': { enable: 'off' }, gh__a: { enable: { availability: 'discoverable' } } }, 'gh__a', 'on'), [{ path: ['gh__a', 'enable'], value: 'on' }]);
  });

  it('an entry that would only repeat what it inherits from "*" goes, and its emptied object with it', () => {
    assert.deepEqual(edits({ '*': { enable: 'discoverable' }, gh__a: { enable: 'on' } }, 'gh__a', 'discoverable'), [{ path: ['gh__a'], value: undefined }]);
  });

  it('… and from <server>__*, keeping the entry\'s other fields', () => {
    const tools = { 'gh__*': { enable: 'off' }, gh__a: { enable: 'on', run: 'unattended' } };
    assert.deepEqual(edits(tools, 'gh__a', 'off'), [{ path: ['gh__a', 'enable'], value: undefined }]);
    assert.deepEqual(applied(tools, edits(tools, 'gh__a', 'off')), { 'gh__*': { enable: 'off' }, gh__a: { run: 'unattended' } });
  });

  it('a new entry under an inherited allow_toggle other than any is a table, so allow_toggle keeps inheriting', () => {
    const tools = { '*': { enable: { availability: 'discoverable', allow_toggle: 'if_named' } } };
    const after = applied(tools, edits(tools, 'gh__a', 'on'));
    assert.deepEqual(after, { ...tools, gh__a: { enable: { availability: 'on' } } });
    assert.equal(resolveTool(parseToolsConfig(after).value, tool('gh__a')).allowToggle, 'if_named');
  });

  it('a shorthand whose allow_toggle is not any keeps it in a table, and goes back to the shorthand that means it', () => {
    const on = edits({ gh__a: { enable: 'explicit' } }, 'gh__a', 'on');
    assert.deepEqual(on, [{ path: ['gh__a', 'enable'], value: { availability: 'on', allow_toggle: 'if_named' } }]);
    const tools = applied({ gh__a: { enable: 'explicit' } }, on);
    assert.deepEqual(edits(tools, 'gh__a', 'off'), [{ path: ['gh__a', 'enable'], value: 'explicit' }]);
  });

  it('a table with an allow_toggle of its own gets only its availability changed', () => {
    assert.deepEqual(edits({ gh__a: { enable: { availability: 'on', allow_toggle: 'if_named' } } }, 'gh__a', 'discoverable'),
      [{ path: ['gh__a', 'enable', 'availability'], value: 'discoverable' }]);
  });

  it('a legacy { "state": false } table gets availability and loses state; other entries are untouched', () => {
    const before = {
      '*': { enable: 'discoverable' },
      gh__list: { enable: { state: false, allow_toggle: 'if_named' }, run: 'ask' },
      gh__other: { enable: { state: false } },
    };
    const change = edits(before, 'gh__list', 'discoverable');
    assert.deepEqual(change, [{ path: ['gh__list', 'enable', 'availability'], value: 'discoverable' }, { path: ['gh__list', 'enable', 'state'], value: undefined }]);
    assert.deepEqual(applied(before, change), {
      '*': { enable: 'discoverable' },
      gh__list: { enable: { allow_toggle: 'if_named', availability: 'discoverable' }, run: 'ask' },
      gh__other: { enable: { state: false } },
    });
  });

  it('editing a legacy table leaves exactly one spelling, which parses without error', () => {
    const before = { x: { enable: { state: true, allow_toggle: 'if_named' } } };
    const after = applied(before, enableEdits(inWorkspace(before), 'workspace', tool('x', undefined), 'discoverable'));
    assert.deepEqual(after, { x: { enable: { allow_toggle: 'if_named', availability: 'discoverable' } } });
    assert.deepEqual(parseToolsConfig(after).issues, []);
  });

  it('an invalid enable is replaced whole', () => {
    assert.deepEqual(edits({ '*': { enable: 'discoverable' }, gh__a: { enable: 'maybe' } }, 'gh__a', 'on'), [{ path: ['gh__a', 'enable'], value: 'on' }]);
    assert.deepEqual(edits({ gh__a: { enable: { availability: 'on', allow_toggle: 'sometimes' } } }, 'gh__a', 'off'), [{ path: ['gh__a', 'enable'], value: 'off' }]);
    assert.deepEqual(edits({ gh__a: { enable: 'maybe' } }, 'gh__a', 'on'), [{ path: ['gh__a'], value: undefined }], 'on is what it inherits');
  });

  it('an entry that is not an object is replaced by one', () => {
    const after = applied({ gh__a: 'on' }, edits({ gh__a: 'on' }, 'gh__a', 'off'));
    assert.deepEqual(after, { gh__a: { enable: 'off' } });
  });

  it('inherits across scopes as VS Code merges them: a user entry shows through a removed workspace one', () => {
    const values: ScopedValues = { user: { gh__a: { enable: 'off' } }, workspace: { gh__a: { enable: 'on' } } };
    assert.deepEqual(enableEdits(values, 'workspace', tool('gh__a'), 'off'), [{ path: ['gh__a'], value: undefined }]);
    assert.deepEqual(enableEdits(values, 'workspace', tool('gh__a'), 'discoverable'), [{ path: ['gh__a', 'enable'], value: 'discoverable' }]);
    const deep: ScopedValues = { user: { '*': { enable: { allow_toggle: 'if_named' } } }, workspace: { '*': { enable: { availability: 'discoverable' } }, gh__a: { enable: 'on' } } };
    assert.deepEqual(enableEdits(deep, 'workspace', tool('gh__a'), 'discoverable'), [{ path: ['gh__a', 'enable'], value: 'discoverable' }],
      'the user\'s allow_toggle merges into the workspace "*" table, so "discoverable" (any) is not what the tool inherits');
  });

  it('a builtin (no server) inherits from "*" only', () => {
    const values = inWorkspace({ 'x__*': { enable: 'off' }, search_tools: { enable: 'off' } });
    assert.deepEqual(enableEdits(values, 'workspace', tool('search_tools', undefined), 'on'), [{ path: ['search_tools'], value: undefined }]);
  });
});

describe('the scope a tool write goes to', () => {
  it('is where the tool\'s entry already lives, most specific first', () => {
    assert.equal(scopeForToolKey({ user: { a: {} }, workspace: { b: {} } }, 'a', true), 'user');
    assert.equal(scopeForToolKey({ user: { a: {} }, workspace: { a: {} } }, 'a', true), 'workspace');
    assert.equal(scopeForToolKey({ workspaceFolder: { a: {} }, workspace: { a: {} } }, 'a', true), 'workspaceFolder');
  });

  it('else the workspace when one is open, else the user', () => {
    assert.equal(scopeForToolKey({ user: { b: {} } }, 'a', true), 'workspace');
    assert.equal(scopeForToolKey({}, 'a', false), 'user');
  });
});

describe('writing a whole server\'s availability', () => {
  it('sets <server>__* and the tool entries that would shadow it, dropping those that now repeat it', () => {
    const before = {
      '*': { enable: 'discoverable' },
      fs__read: { enable: 'on' },
      fs__stat: { run: 'unattended' },
      fs__write: { enable: { availability: 'on', allow_toggle: 'if_named' } },
      gh__pr: { enable: 'on' },
    };
    const change = serverEnableEdits(inWorkspace(before), 'workspace', 'fs', ['fs__read', 'fs__stat', 'fs__write', 'fs__list'], 'off');
    assert.deepEqual(applied(before, change), {
      '*': { enable: 'discoverable' },
      fs__stat: { run: 'unattended' },
      fs__write: { enable: 'explicit' },
      gh__pr: { enable: 'on' },
      'fs__*': { enable: 'off' },
    });
  });

  it('back to what "*" says: the server entry goes too', () => {
    const before = { '*': { enable: 'discoverable' }, 'fs__*': { enable: 'off' }, fs__read: { enable: 'on' } };
    const change = serverEnableEdits(inWorkspace(before), 'workspace', 'fs', ['fs__read'], 'discoverable');
    assert.deepEqual(applied(before, change), { '*': { enable: 'discoverable' } });
  });
});

describe('writing a run policy and applying edits', () => {
  it('sets run and keeps enable', () => {
    assert.deepEqual(applied({ a: { enable: 'on' } }, runEdits('a', 'unattended')), { a: { enable: 'on', run: 'unattended' } });
  });

  it('starts from an empty or unreadable value, and a removal of what is not there changes nothing', () => {
    assert.deepEqual(applySettingsEdit(undefined, { path: ['a', 'enable'], value: 'off' }), { a: { enable: 'off' } });
    assert.deepEqual(applySettingsEdit('nonsense', { path: ['a', 'enable'], value: 'off' }), { a: { enable: 'off' } });
    assert.deepEqual(applySettingsEdit({ a: 'x' }, { path: ['a', 'enable'], value: undefined }), { a: 'x' });
  });

  it('does not mutate its input', () => {
    const before = { a: { enable: { state: false } } };
    applySettingsEdit(before, { path: ['a', 'enable', 'state'], value: undefined });
    assert.deepEqual(before, { a: { enable: { state: false } } });
  });
});
