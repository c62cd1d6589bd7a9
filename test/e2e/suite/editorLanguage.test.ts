// Extension-host e2e tests of the editor's language tools: real TypeScript files in the fixture
// workspace, answered by the TypeScript language service that ships with VS Code.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import type { HandlerContext } from '../../../src/extension/editorTools/handler';
import { ProposalRefused } from '../../../src/extension/editorTools/handler';
import { typescriptProjectLoaded } from '../../../src/extension/editorTools/typescriptReady';
import { documentSymbols, findReferences, goToDefinition, proposeRenameSymbol, workspaceSymbols } from '../../../src/extension/editorTools/languageTools';

const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'commonjs' }, include: ['*.ts'] }, null, 2),
  'greet.ts': [
    'export function greet(name: string): string {',
    '  return `Hello, ${name}`;',
    '}',
    '',
  ].join('\n'),
  'a.ts': [
    "import { greet } from './greet';",
    '',
    "export const fromA = greet('a');",
    '',
  ].join('\n'),
  'b.ts': [
    "import { greet } from './greet';",
    '',
    'export function fromB(): string {',
    "  return greet('b');",
    '}',
    '',
  ].join('\n'),
};

function textOf(result: ToolCallResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('editor language tools (TypeScript language service)', function () {
  this.timeout(120_000);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const dir = folder === undefined ? undefined : vscode.Uri.joinPath(folder, 'lang');
  let log: vscode.LogOutputChannel | undefined;
  let projectLoaded = false;
  let referencesOnceLoaded = 0;
  const ctx = (): HandlerContext => {
    assert.ok(log);
    return { signal: new AbortController().signal, hooks: {}, log };
  };

  before(async () => {
    assert.ok(dir, 'the e2e run opens a workspace folder');
    log = vscode.window.createOutputChannel('Quiver e2e language tools', { log: true });
    await vscode.workspace.fs.createDirectory(dir);
    for (const [name, text] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, name), new TextEncoder().encode(text));
    // TypeScript starts lazily and loads the project in its own time, which on a busy CI machine can
    // take longer than the tools wait (30 s): wait for it as they do, just longer, and note what
    // the reference provider answers right after.
    const greet = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(dir, 'greet.ts'));
    const deadline = Date.now() + 90_000;
    while (!projectLoaded && Date.now() < deadline) projectLoaded = await typescriptProjectLoaded(greet);
    referencesOnceLoaded = (await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', greet.uri, new vscode.Position(0, 16))).length;
  });

  after(async () => {
    log?.dispose();
    if (dir !== undefined) await vscode.workspace.fs.delete(dir, { recursive: true, useTrash: false });
  });

  it('once TypeScript has loaded the project (as the tools wait for), its answers cover the whole project', () => {
    assert.equal(projectLoaded, true, 'TypeScript did not load the project within 90 s');
    assert.equal(referencesOnceLoaded, 5, 'the reference provider answered from the open file only (TypeScript\'s syntax server)');
  });

  it('find_references lists the real references in all three files', async () => {
    const result = await findReferences({ path: 'lang/greet.ts', line: 1, symbol: 'greet' }, ctx());
    const text = textOf(result);
    assert.equal(result.isError, false, text);
    assert.match(text, /5 references in 3 files/);
    const lines = text.split('\n').filter((l) => l.startsWith('lang/'));
    assert.deepEqual(lines, [
      "lang/a.ts:1:10  import { greet } from './greet';",
      "lang/a.ts:3:22  export const fromA = greet('a');",
      "lang/b.ts:1:10  import { greet } from './greet';",
      "lang/b.ts:4:10  return greet('b');",
      'lang/greet.ts:1:17  export function greet(name: string): string {',
    ]);
  });

  it('go_to_definition from a call site points at the declaration in greet.ts', async () => {
    const result = await goToDefinition({ path: 'lang/b.ts', line: 4, symbol: 'greet' }, ctx());
    const text = textOf(result);
    assert.equal(result.isError, false, text);
    assert.match(text, /^Definition of "greet" at lang\/b\.ts:4:10: 1 definition in 1 file:/);
    assert.match(text, /\nlang\/greet\.ts:1:17 {2}export function greet\(name: string\): string \{$/);
  });

  it('document_symbols outlines the file', async () => {
    const result = await documentSymbols({ path: 'lang/b.ts' }, ctx());
    const text = textOf(result);
    assert.equal(result.isError, false, text);
    assert.match(text, /^Function fromB — line 3$/m);
    const greet = textOf(await documentSymbols({ path: 'lang/greet.ts' }, ctx()));
    assert.match(greet, /^Function greet — line 1$/m);
  });

  it('workspace_symbols finds the function', async () => {
    const result = await workspaceSymbols({ query: 'greet' }, ctx());
    const text = textOf(result);
    assert.equal(result.isError, false, text);
    assert.match(text, /symbols? match "greet"/);
    assert.match(text, /^lang\/greet\.ts:1:\d+ {2}Function greet\b/m);
  });

  it('a symbol that is not on the line is an error showing the line and where the symbol is', async () => {
    const result = await findReferences({ path: 'lang/b.ts', line: 3, symbol: 'greet' }, ctx());
    const text = textOf(result);
    assert.equal(result.isError, true);
    assert.match(text, /"greet" is not on line 3 of lang\/b\.ts, which reads: "export function fromB\(\): string \{"/);
    assert.match(text, /occurs on line 4 and line 1/);
  });

  it('a path that climbs out of the workspace is refused', async () => {
    const result = await documentSymbols({ path: '../outside.ts' }, ctx());
    assert.equal(result.isError, true);
    assert.match(textOf(result), /contains ".."/);
  });

  it('rename_symbol proposes the language service\'s edits for all three files, without applying them', async () => {
    const proposal = await proposeRenameSymbol({ path: 'lang/greet.ts', line: 1, symbol: 'greet', new_name: 'welcome' });
    assert.equal(proposal.mustAsk, null);
    assert.deepEqual(proposal.changes.map((c) => [c.kind, c.label]), [['edit', 'lang/a.ts'], ['edit', 'lang/b.ts'], ['edit', 'lang/greet.ts']]);
    for (const change of proposal.changes) {
      assert.ok(change.kind === 'edit');
      const name = change.label.slice('lang/'.length);
      assert.equal(change.before, FILES[name], `before of ${change.label}`);
      assert.equal(change.after, FILES[name]?.replace(/\bgreet\b(?!')/g, 'welcome'), `after of ${change.label}`);
      assert.equal(change.path, vscode.Uri.joinPath(dir ?? vscode.Uri.file('/'), name).fsPath);
    }
    const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir ?? vscode.Uri.file('/'), 'a.ts')));
    assert.equal(onDisk, FILES['a.ts'], 'a proposal changes nothing');
  });

  it('rename_symbol refuses what the language service cannot rename, with its reason', async () => {
    await assert.rejects(proposeRenameSymbol({ path: 'lang/greet.ts', line: 1, symbol: 'string', new_name: 'text' }), (err: unknown) => {
      assert.ok(err instanceof ProposalRefused, String(err));
      assert.match(err.message, /cannot rename "string" at lang\/greet\.ts:1:29: ./);
      return true;
    });
  });
});
