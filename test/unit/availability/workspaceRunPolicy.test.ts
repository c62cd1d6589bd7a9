import assert from 'node:assert/strict';
import {
  applySettingsEdit, appliedToolsValue, ignoredRunPolicyOf, parseToolsConfig, resolveTool, runRemoval, writtenToolsConfig,
  type IgnoredRunPolicy, type RunPolicy, type RunTrust, type ScopedValues,
} from '../../../src/core/availability';

const echo = { name: 'everything__echo', server: 'everything' };
const search = { name: 'search_tools', server: undefined };

type Tool = { name: string; server: string | undefined };

/** The run policy `tool` gets from `quiver.tools` as Quiver applies it. */
function runOf(values: ScopedValues, tool: Tool = echo, trust?: RunTrust): RunPolicy {
  return resolveTool(parseToolsConfig(appliedToolsValue(values, trust).value).value, tool).run;
}

function ignoredFor(values: ScopedValues, tool: Tool): IgnoredRunPolicy | undefined {
  const applied = appliedToolsValue(values);
  return ignoredRunPolicyOf(writtenToolsConfig(values), parseToolsConfig(applied.value).value, applied.ignored, tool);
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

  it('each workspace scope is judged on its own, the folder first, as VS Code ranks them', () => {
    const values = { workspace: { '*': { run: 'unattended' } }, workspaceFolder: { '*': { run: 'unattended' } } };
    assert.deepEqual(appliedToolsValue(values).ignored, [{ key: '*', scope: 'workspaceFolder' }, { key: '*', scope: 'workspace' }]);
    assert.deepEqual(ignoredFor(values, echo), { key: '*', scope: 'workspaceFolder' });
  });

  it('a folder\'s "unattended" does not undo the workspace\'s "ask" for a key the user allows only more widely', () => {
    const values = { user: { 'everything__*': { run: 'unattended' } }, workspace: { everything__echo: { run: 'ask' } }, workspaceFolder: { everything__echo: { run: 'unattended' } } };
    assert.equal(runOf(values), 'ask');
  });

  it('a workspace entry that is not an object, replacing the user\'s entry in the merge, asks (and leaves the tool off)', () => {
    for (const entry of ['x', [], 0]) {
      const values = { user: { 'everything__*': { run: 'unattended' }, everything__echo: { run: 'ask' } }, workspace: { everything__echo: entry } };
      const resolved = resolveTool(parseToolsConfig(appliedToolsValue(values).value).value, echo);
      assert.deepEqual([resolved.availability, resolved.run], ['off', 'ask'], JSON.stringify(entry));
    }
  });

  it('nothing is reported for a tool whose written run policy asks anyway (a folder overriding the workspace)', () => {
    assert.equal(ignoredFor({ workspace: { '*': { run: 'unattended' } }, workspaceFolder: { '*': { run: 'ask' } } }, echo), undefined);
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

  it('names the key the tool would have taken its run policy from', () => {
    assert.deepEqual(ignoredFor(values, echo), { key: 'everything__*', scope: 'workspace' });
  });

  it('nothing for a tool of another server, or one the user lets run unattended anyway', () => {
    assert.equal(ignoredFor(values, { name: 'github__create_issue', server: 'github' }), undefined);
    assert.equal(ignoredFor({ ...values, user: { '*': { run: 'unattended' } } }, echo), undefined);
  });

  it('nothing when a more specific entry of the tool sets its run policy', () => {
    assert.equal(ignoredFor({ workspace: { 'everything__*': { run: 'unattended' }, everything__echo: { run: 'ask' } } }, echo), undefined);
  });
});

describe('a dev container, whose Machine settings the repository writes', () => {
  const container = (approvals: readonly string[]): RunTrust => ({ userScopeTrusted: false, approvals });

  it('"unattended" in the User-scope value is ignored there too, and reported as the container\'s', () => {
    const values = { user: { '*': { run: 'unattended' } } };
    assert.equal(runOf(values, echo, container([])), 'ask');
    assert.deepEqual(appliedToolsValue(values, container([])).ignored, [{ key: '*', scope: 'user' }]);
  });

  it('the user\'s approvals (kept outside settings) let exactly those keys run unattended', () => {
    assert.equal(runOf({}, echo, container(['everything__echo'])), 'unattended');
    assert.equal(runOf({ user: { everything__echo: { enable: 'on', run: 'unattended' } }, workspace: { everything__echo: { run: 'unattended' } } }, echo, container(['everything__echo'])), 'unattended');
    assert.equal(runOf({}, { name: 'everything__add', server: 'everything' }, container(['everything__echo'])), 'ask');
  });

  it('an approval keeps the rest of the entry, and a workspace may still tighten it', () => {
    const applied = appliedToolsValue({ user: { everything__echo: { enable: 'on' } } }, container(['everything__echo']));
    assert.deepEqual(applied.value, { everything__echo: { enable: 'on', run: 'unattended' } });
    assert.equal(runOf({ workspace: { everything__echo: { run: 'ask' } } }, echo, container(['everything__echo'])), 'ask');
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
