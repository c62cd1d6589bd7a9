import assert from 'node:assert/strict';
import {
  applySettingsEdit, appliedToolsValue, ignoredRunPolicyOf, parseToolsConfig, resolveTool, runRemoval, type RunPolicy, type ScopedValues,
} from '../../../src/core/availability';

const echo = { name: 'everything__echo', server: 'everything' };
const search = { name: 'search_tools', server: undefined };

/** The run policy `tool` gets from `quiver.tools` as Quiver applies it. */
function runOf(values: ScopedValues, tool: { name: string; server: string | undefined } = echo): RunPolicy {
  return resolveTool(parseToolsConfig(appliedToolsValue(values).value).value, tool).run;
}

const WORKSPACE_SCOPES = ['workspace', 'workspaceFolder'] as const;

describe('a run policy that loosens approval counts only from User settings', () => {
  for (const scope of WORKSPACE_SCOPES) {
    describe(`written in ${scope} settings`, () => {
      for (const key of ['*', 'everything__*', 'everything__echo']) {
        it(`"${key}": { "run": "unattended" } is ignored: the tool asks`, () => {
          const values = { [scope]: { [key]: { run: 'unattended' } } };
          assert.equal(runOf(values), 'ask');
          assert.deepEqual(appliedToolsValue(values).ignored, [{ key, scope }]);
        });
      }

      it('its availability still applies, in every written form (shorthand, table, legacy state, boolean)', () => {
        for (const enable of ['on', { availability: 'on' }, { state: true }, true]) {
          const values = { [scope]: { everything__echo: { enable, run: 'unattended' }, '*': { enable: 'off' } } };
          const resolved = resolveTool(parseToolsConfig(appliedToolsValue(values).value).value, echo);
          assert.deepEqual([resolved.availability, resolved.run], ['on', 'ask'], JSON.stringify(enable));
        }
      });

      it('it may tighten: "ask" overrides the user\'s "unattended" for the same key', () => {
        assert.equal(runOf({ user: { everything__echo: { run: 'unattended' } }, [scope]: { everything__echo: { run: 'ask' } } }), 'ask');
        assert.equal(runOf({ user: { '*': { run: 'unattended' } }, [scope]: { 'everything__*': { run: 'ask' } } }), 'ask');
      });

      it('an unreadable run policy asks', () => {
        assert.equal(runOf({ user: { everything__echo: { run: 'unattended' } }, [scope]: { everything__echo: { run: 'Unattended' } } }), 'ask');
      });

      it('it may turn a builtin (unattended by default) to asking, not the other way', () => {
        assert.equal(runOf({ [scope]: { search_tools: { run: 'ask' } } }, search), 'ask');
        assert.equal(runOf({ user: { '*': { run: 'ask' } }, [scope]: { search_tools: { run: 'unattended' } } }, search), 'ask');
      });
    });
  }

  it('the user\'s own "unattended" applies, for the tool, its server or "*"', () => {
    for (const key of ['*', 'everything__*', 'everything__echo']) assert.equal(runOf({ user: { [key]: { run: 'unattended' } } }), 'unattended', key);
  });

  it('a workspace entry that repeats the user\'s "unattended" for the same key is not reported', () => {
    const values = { user: { everything__echo: { run: 'unattended' } }, workspace: { everything__echo: { enable: 'on', run: 'unattended' } } };
    assert.equal(runOf(values), 'unattended');
    assert.deepEqual(appliedToolsValue(values).ignored, []);
  });

  it('an ignored key keeps the user\'s run policy for that key, or inherits the user\'s wider one', () => {
    assert.equal(runOf({ user: { everything__echo: { run: 'ask' }, '*': { run: 'unattended' } }, workspace: { everything__echo: { run: 'unattended' } } }), 'ask');
    assert.equal(runOf({ user: { '*': { run: 'unattended' } }, workspace: { 'everything__*': { run: 'unattended' } } }), 'unattended');
  });

  it('the folder scope beats the workspace scope in what is reported, as VS Code merges them', () => {
    const values = { workspace: { '*': { run: 'unattended' } }, workspaceFolder: { '*': { run: 'unattended' } } };
    assert.deepEqual(appliedToolsValue(values).ignored, [{ key: '*', scope: 'workspaceFolder' }]);
    assert.deepEqual(appliedToolsValue({ workspace: { '*': { run: 'unattended' } }, workspaceFolder: { '*': { run: 'ask' } } }).ignored, []);
  });

  it('entries without a loosening run policy, and values that are not objects, pass through unchanged', () => {
    const values = { user: { a: { enable: 'on' } }, workspace: { b: { enable: 'off', run: 'ask' }, c: 'nonsense' } };
    assert.deepEqual(appliedToolsValue(values), { value: { a: { enable: 'on' }, b: { enable: 'off', run: 'ask' }, c: 'nonsense' }, ignored: [] });
    assert.deepEqual(appliedToolsValue({ workspace: 'nonsense' }), { value: 'nonsense', ignored: [] });
    assert.deepEqual(appliedToolsValue({}), { value: undefined, ignored: [] });
  });
});

describe('which tools a workspace run policy was ignored for', () => {
  const values = { workspace: { 'everything__*': { run: 'unattended' } } };
  const applied = appliedToolsValue(values);

  it('names the key the tool would have taken its run policy from', () => {
    assert.deepEqual(ignoredRunPolicyOf(values, applied, echo), { key: 'everything__*', scope: 'workspace' });
  });

  it('nothing for a tool of another server, or one the user lets run unattended anyway', () => {
    assert.equal(ignoredRunPolicyOf(values, applied, { name: 'github__create_issue', server: 'github' }), undefined);
    const userToo = { ...values, user: { '*': { run: 'unattended' } } };
    assert.equal(ignoredRunPolicyOf(userToo, appliedToolsValue(userToo), echo), undefined);
  });

  it('nothing when a more specific entry of the tool sets its run policy', () => {
    const own = { workspace: { 'everything__*': { run: 'unattended' }, everything__echo: { run: 'ask' } } };
    assert.equal(ignoredRunPolicyOf(own, appliedToolsValue(own), echo), undefined);
  });
});

describe('resetting an approval in User settings', () => {
  it('removes the run policy, and the entry when nothing else is left in it', () => {
    const tools = { a: { run: 'unattended' }, b: { enable: 'on', run: 'unattended' } };
    assert.deepEqual(runRemoval(tools, 'a').reduce<unknown>(applySettingsEdit, tools), { b: { enable: 'on', run: 'unattended' } });
    assert.deepEqual(runRemoval(tools, 'b').reduce<unknown>(applySettingsEdit, tools), { a: { run: 'unattended' }, b: { enable: 'on' } });
    assert.deepEqual(runRemoval(tools, 'c'), []);
  });
});
