// Extension-host e2e tests of the editor's writing tools through their tool source: the review a
// call gets before it runs, the change applied as one WorkspaceEdit (saved, undoable with the
// editor's Undo), a stale review refused, the paths that ask or are refused, reads of unsaved
// buffers, and Undo this turn's changes from the stream's checkpoint.
import * as assert from 'node:assert/strict';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { StreamEvent } from '../../../src/core/stream/events';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import { ChangeDiffs } from '../../../src/extension/editorTools/changeDiffs';
import { EditorToolSource } from '../../../src/extension/editorTools/editorToolSource';
import { TurnChangeActions } from '../../../src/extension/editorTools/turnChanges';

const at = new Date(0).toISOString();
const textOf = (r: ToolCallResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('editor writing tools (review, WorkspaceEdit, Undo)', function () {
  this.timeout(60_000);
  const root = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('no workspace folder');
  const dir = (): string => join(root(), 'changes-e2e');
  const log = vscode.window.createOutputChannel('Quiver e2e changes', { log: true });
  const diffs = new ChangeDiffs();
  const source = new EditorToolSource(diffs, log);
  const signal = (): AbortSignal => new AbortController().signal;
  let calls = 0;
  const run = async (tool: string, input: Record<string, unknown>): Promise<{ review: Awaited<ReturnType<EditorToolSource['review']>>; result: ToolCallResult | undefined; callId: string }> => {
    const callId = `call_${++calls}`;
    const review = await source.review(`editor__${tool}`, input, callId);
    if (review.kind === 'refused') return { review, result: undefined, callId };
    return { review, result: await source.call(`editor__${tool}`, input, signal(), { callId }), callId };
  };

  before(async () => {
    await mkdir(dir(), { recursive: true });
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await rm(dir(), { recursive: true, force: true });
    source.dispose();
    diffs.dispose();
    log.dispose();
  });

  it('reviews an edit as a diff summary, applies it as one saved WorkspaceEdit, and the editor\'s Undo takes it back', async () => {
    const file = join(dir(), 'greet.ts');
    await writeFile(file, 'export function greet() {\n  return "Good morning";\n}\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const { review, result } = await run('edit_file', { path: 'changes-e2e/greet.ts', edits: [{ old_string: '"Good morning"', new_string: '"Hello"' }] });
    assert.deepEqual(review, { kind: 'review', changes: [{ label: 'changes-e2e/greet.ts', kind: 'edit', added: 1, removed: 1, fromLabel: null }], mustAsk: null });
    assert.equal(result?.isError, false);
    assert.match(textOf(result ?? { content: [], isError: true }), /Applied and saved: edited changes-e2e\/greet\.ts \(\+1 −1\)[\s\S]*- {2}return "Good morning";\n\+ {2}return "Hello";/);
    assert.deepEqual(result?.changes?.map((c) => c.kind), ['edit']);
    assert.equal(await readFile(file, 'utf8'), 'export function greet() {\n  return "Hello";\n}\n', 'saved to disk');
    assert.equal(doc.getText(), 'export function greet() {\n  return "Hello";\n}\n', 'and in the open editor');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), 'export function greet() {\n  return "Good morning";\n}\n', 'the editor\'s Undo restores it');
    await doc.save();
  });

  it('an edit reviewed before the file changed is not applied, and the model is told to read it again', async () => {
    const file = join(dir(), 'stale.ts');
    await writeFile(file, 'const a = 1;\n');
    const callId = 'stale_1';
    const review = await source.review('editor__edit_file', { path: 'changes-e2e/stale.ts', edits: [{ old_string: '1', new_string: '2' }] }, callId);
    assert.equal(review.kind, 'review');
    await writeFile(file, 'const a = 1; // edited meanwhile\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await new Promise((done) => setTimeout(done, 500));
    if (doc.getText() !== 'const a = 1; // edited meanwhile\n') await vscode.commands.executeCommand('workbench.action.files.revert');
    const result = await source.call('editor__edit_file', { path: 'changes-e2e/stale.ts', edits: [{ old_string: '1', new_string: '2' }] }, signal(), { callId });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^Nothing was applied: changes-e2e\/stale\.ts changed since the change was worked out/);
    assert.equal(await readFile(file, 'utf8'), 'const a = 1; // edited meanwhile\n');
  });

  it('read_file returns the editor\'s unsaved text', async () => {
    const file = join(dir(), 'unsaved.ts');
    await writeFile(file, 'on disk\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'typed, not saved\n'));
    const { result } = await run('read_file', { path: 'changes-e2e/unsaved.ts' });
    assert.match(textOf(result ?? { content: [], isError: true }), /has unsaved changes in the editor[\s\S]*\n {5}1\ttyped, not saved\n {5}2\ton disk/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('a string that does not match is refused at review with the nearest lines; nothing asks', async () => {
    await writeFile(join(dir(), 'near.ts'), 'function add(a, b) {\n  return a + b;\n}\n');
    const { review } = await run('edit_file', { path: 'changes-e2e/near.ts', edits: [{ old_string: 'return a - b;', new_string: 'x' }] });
    assert.equal(review.kind, 'refused');
    assert.match(review.kind === 'refused' ? review.reason : '', /was not found in changes-e2e\/near\.ts[\s\S]*nearest lines of the file:\n {5}1\tfunction add[\s\S]*\n {5}2\t {2}return a \+ b;/);
  });

  it('.git is never written, ".." is refused, outside the workspace asks, Quiver\'s own settings always ask', async () => {
    const git = await run('create_file', { path: '.git/config', content: 'x', overwrite: true });
    assert.equal(git.review.kind, 'refused');
    assert.match(git.review.kind === 'refused' ? git.review.reason : '', /inside a \.git folder, which Quiver never writes/);
    const climb = await run('read_file', { path: '../etc/passwd' });
    assert.match(climb.review.kind === 'refused' ? climb.review.reason : '', /contains "\.\."/);
    const outside = await source.review('editor__read_file', { path: '/etc/hostname' }, 'outside_1');
    assert.deepEqual(outside, { kind: 'review', changes: [], mustAsk: 'it reads /etc/hostname, outside the workspace folders' });
    const settings = await source.review('editor__create_file', { path: 'changes-e2e/.vscode/settings.json', content: '{ "quiver.tools": { "*": { "run": "unattended" } } }' }, 'settings_1');
    assert.equal(settings.kind === 'review' ? settings.mustAsk : undefined, 'it changes Quiver\'s own settings (quiver.tools) in settings.json');
  });

  it('Undo this turn\'s changes restores every file the turn changed, from the stream alone', async () => {
    const files = ['one.ts', 'two.ts', 'three.ts'].map((f) => join(dir(), f));
    for (const f of files) await writeFile(f, `export const value = '${f}';\n`);
    const results: StreamEvent[] = [];
    for (const [i, name] of ['one.ts', 'two.ts', 'three.ts'].entries()) {
      const { result, callId } = await run('edit_file', { path: `changes-e2e/${name}`, edits: [{ old_string: 'export const', new_string: 'export let' }] });
      results.push({ type: 'tool_result', toolUseId: callId, name: 'editor__edit_file', content: result?.content ?? [], isError: false, ...(result?.changes ? { changes: result.changes } : {}), at });
      assert.match(await readFile(files[i] ?? '', 'utf8'), /^export let/);
    }
    const created = await run('create_file', { path: 'changes-e2e/new.ts', content: 'new\n' });
    results.push({ type: 'tool_result', toolUseId: created.callId, name: 'editor__create_file', content: [], isError: false, ...(created.result?.changes ? { changes: created.result.changes } : {}), at });
    const events: StreamEvent[] = [{ type: 'turn_start', at }, { type: 'user_message', text: 'edit them', at }, ...results, { type: 'turn_end', reason: 'done', at }];
    // A new actions object over the recorded events: what a reloaded window has.
    const undone = await new TurnChangeActions(source, diffs).undo(events, `e${events.length - 1}`);
    assert.deepEqual([...(undone?.restored ?? [])].sort(), ['changes-e2e/new.ts', 'changes-e2e/one.ts', 'changes-e2e/three.ts', 'changes-e2e/two.ts']);
    assert.deepEqual(undone?.skipped, []);
    for (const f of files) assert.equal(await readFile(f, 'utf8'), `export const value = '${f}';\n`);
    await assert.rejects(readFile(join(dir(), 'new.ts'), 'utf8'), 'the created file is gone');
    const again = await new TurnChangeActions(source, diffs).undo([...events, ...(undone ? [undone] : [])], `e${events.length - 1}`);
    assert.equal(again, undefined, 'nothing left to undo');
  });
});
