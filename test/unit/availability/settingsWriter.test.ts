import assert from 'node:assert/strict';
import { parseToolsConfig, resolveTool, scopeForToolKey, withServerEnable, withToolEnable, withToolRun } from '../../../src/core/availability';

describe('writing a tool\'s enable back to quiver.tools', () => {
  it('a legacy { "state": false } table gets availability and loses state; other tables are untouched', () => {
    const before = {
      '*': { enable: 'discoverable' },
      gh__list: { enable: { state: false, allow_toggle: 'if_named' }, run: 'ask' },
      gh__other: { enable: { state: false } },
    };
    const after = withToolEnable(before, 'gh__list', 'discoverable');
    assert.deepEqual(after, {
      '*': { enable: 'discoverable' },
      gh__list: { enable: { allow_toggle: 'if_named', availability: 'discoverable' }, run: 'ask' },
      gh__other: { enable: { state: false } },
    });
    assert.deepEqual(before.gh__list.enable, { state: false, allow_toggle: 'if_named' }, 'the input is not mutated');
  });

  it('editing a legacy table leaves exactly one spelling, which parses without error', () => {
    const after = withToolEnable({ x: { enable: { state: true } } }, 'x', 'off');
    assert.deepEqual(after, { x: { enable: { availability: 'off' } } });
    assert.deepEqual(parseToolsConfig(after).issues, []);
  });

  it('a new entry is written in the table form so allow_toggle keeps inheriting', () => {
    const after = withToolEnable({ '*': { enable: { allow_toggle: 'if_named' } } }, 'fs__read', 'on');
    assert.deepEqual(after['fs__read'], { enable: { availability: 'on' } });
    assert.equal(resolveTool(parseToolsConfig(after).value, { name: 'fs__read', server: 'fs' }).allowToggle, 'if_named');
  });

  it('a shorthand with allow_toggle any stays a shorthand; another shorthand keeps its policy in a table', () => {
    assert.deepEqual(withToolEnable({ a: { enable: true } }, 'a', 'discoverable'), { a: { enable: 'discoverable' } });
    assert.deepEqual(withToolEnable({ a: { enable: 'explicit' } }, 'a', 'on'), { a: { enable: { availability: 'on', allow_toggle: 'if_named' } } });
  });

  it('starts from an empty or unreadable value', () => {
    assert.deepEqual(withToolEnable(undefined, 'a', 'off'), { a: { enable: { availability: 'off' } } });
    assert.deepEqual(withToolEnable('nonsense', 'a', 'off'), { a: { enable: { availability: 'off' } } });
  });

  it('sets a run policy and keeps enable', () => {
    assert.deepEqual(withToolRun({ a: { enable: 'on' } }, 'a', 'unattended'), { a: { enable: 'on', run: 'unattended' } });
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
  it('sets <server>__* and the tool entries that would shadow it, in one value, leaving the rest', () => {
    const before = {
      '*': { enable: 'discoverable' },
      fs__read: { enable: 'on' },
      fs__stat: { run: 'unattended' },
      gh__pr: { enable: 'on' },
    };
    assert.deepEqual(withServerEnable(before, 'fs', ['fs__read', 'fs__stat', 'fs__write'], 'discoverable'), {
      '*': { enable: 'discoverable' },
      fs__read: { enable: 'discoverable' },
      fs__stat: { run: 'unattended' },
      gh__pr: { enable: 'on' },
      'fs__*': { enable: { availability: 'discoverable' } },
    });
  });
});
