import assert from 'node:assert/strict';
import { parseToolsConfig, resolveTool } from '../../../src/core/availability';
import { editorToolDefinitions, parseEditorInput } from '../../../src/core/editorTools';
import { wireInputSchema } from '../../../src/core/wire/wireSchema';

const byName = (trusted: boolean) => new Map(editorToolDefinitions(trusted).map((t) => [t.toolName, t]));

describe('the editor\'s own tools', () => {
  it('are named editor__<tool>, with schemas the Messages API takes', () => {
    for (const tool of editorToolDefinitions(true)) {
      assert.match(tool.name, /^editor__[a-z_]+$/);
      assert.equal(tool.server, 'editor');
      assert.equal(wireInputSchema(tool.inputSchema).issue, undefined, tool.name);
      assert.equal(tool.inputSchema['$schema'], undefined);
    }
  });

  it('default to RFD 108\'s shape: reads on, edits on and asking, language and terminal discoverable, delete off', () => {
    const resolved = (toolName: string) => {
      const tool = byName(true).get(toolName);
      assert.ok(tool);
      return resolveTool(new Map(), tool);
    };
    assert.deepEqual([resolved('read_file').availability, resolved('read_file').run], ['on', 'unattended']);
    assert.deepEqual([resolved('search_text').availability, resolved('get_problems').availability], ['on', 'on']);
    assert.deepEqual([resolved('edit_file').availability, resolved('edit_file').run], ['on', 'ask']);
    assert.deepEqual([resolved('create_file').availability, resolved('create_file').run], ['on', 'ask']);
    assert.deepEqual([resolved('find_references').availability, resolved('rename_symbol').availability, resolved('run_command').availability], ['discoverable', 'discoverable', 'discoverable']);
    assert.deepEqual([resolved('run_command').run, resolved('rename_symbol').run], ['ask', 'ask']);
    assert.equal(resolved('delete_file').availability, 'off');
  });

  it('settings win over the defaults: the tool\'s own entry, editor__* and *', () => {
    const tool = byName(true).get('delete_file');
    assert.ok(tool);
    assert.equal(resolveTool(parseToolsConfig({ 'editor__delete_file': { enable: 'on' } }).value, tool).availability, 'on');
    assert.equal(resolveTool(parseToolsConfig({ 'editor__*': { enable: 'discoverable' } }).value, tool).availability, 'discoverable');
    assert.equal(resolveTool(parseToolsConfig({ '*': { run: 'unattended' } }).value, tool).run, 'unattended');
  });

  it('in an untrusted workspace only the read tools exist', () => {
    assert.deepEqual([...byName(false).keys()], ['read_file', 'list_directory', 'find_files', 'search_text', 'get_problems']);
  });

  it('a bad input names the argument and what it must be', () => {
    const bad = parseEditorInput('edit_file', { path: 'a.ts', edits: [{ old_string: 'x' }], extra: 1 });
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.message : '', /"edits\.0\.new_string": .*expected string.*the input: Unrecognized key: "extra"/);
    assert.deepEqual(parseEditorInput('read_file', { path: 'a.ts', offset: 3 }), { ok: true, value: { path: 'a.ts', offset: 3 } });
  });
});
