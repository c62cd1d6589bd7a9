// Extension-host e2e tests of editor__find_files and editor__search_text: VS Code's own ripgrep
// (and the workspace API fallback) over files written into the open workspace folder, with a
// .gitignore and a files.exclude setting in force.
import * as assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ToolCallResult } from '../../../src/core/tools/toolSource';
import type { HandlerContext } from '../../../src/extension/editorTools/handler';
import { ripgrepPath, setRipgrepPathForTests } from '../../../src/extension/editorTools/ripgrep';
import { findFiles, searchText } from '../../../src/extension/editorTools/textSearch';

const DIR = 'search-e2e';
const FILES: Record<string, string> = {
  '.gitignore': '*.log\n!keep.log\n',
  'src/alpha.ts': 'const needleValue = 1;\nfunction Needle(): void {}\n',
  'src/beta.ts': 'needle again\nconst p = "(paren needle";\n',
  'src/beta.test.ts': 'it("finds the needle")\n',
  '.dotfile.ts': 'export const hiddenNeedle = true;\n',
  'ignored.log': 'needle in an ignored file\n',
  'keep.log': 'needle kept by a negation in .gitignore\n',
  'excluded/secret.ts': 'const needle = "excluded by files.exclude";\n',
  'many.txt': Array.from({ length: 50 }, (_, i) => `needle ${i + 1}`).join('\n') + '\n',
};
const EXCLUDED = `**/${DIR}/excluded`;

function root(): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the e2e run opens a workspace folder');
  return folder;
}

function context(signal = new AbortController().signal): HandlerContext {
  return { signal, hooks: {}, log };
}

const textOf = (r: ToolCallResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
/** The lines of an answer after its header line. */
const bodyOf = (r: ToolCallResult): string[] => textOf(r).split('\n').slice(1);

let log: vscode.LogOutputChannel;

describe('editor search tools (find_files, search_text)', function () {
  this.timeout(60_000);
  const files = () => vscode.workspace.getConfiguration('files');
  let excludeBefore: unknown;

  before(async () => {
    log = vscode.window.createOutputChannel('Quiver search e2e', { log: true });
    for (const [rel, text] of Object.entries(FILES)) {
      const path = join(root().uri.fsPath, DIR, rel);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    }
    excludeBefore = files().inspect('exclude')?.workspaceValue;
    const base = typeof excludeBefore === 'object' && excludeBefore !== null ? excludeBefore : {};
    await files().update('exclude', { ...base, [EXCLUDED]: true }, vscode.ConfigurationTarget.Workspace);
  });

  after(async () => {
    setRipgrepPathForTests(null);
    await files().update('exclude', excludeBefore, vscode.ConfigurationTarget.Workspace);
    await rm(join(root().uri.fsPath, DIR), { recursive: true, force: true });
    log.dispose();
  });

  it('finds the ripgrep VS Code ships', async () => {
    assert.match((await ripgrepPath()) ?? '', /ripgrep.*[/\\]rg(\.exe)?$/);
  });

  it('find_files: sorted workspace-relative paths, dotfiles in, .gitignore and files.exclude out', async () => {
    const r = await findFiles({ pattern: `${DIR}/**/*.ts` }, context());
    assert.equal(r.isError, false, textOf(r));
    assert.equal(textOf(r).split('\n')[0], `4 files match "${DIR}/**/*.ts":`);
    assert.deepEqual(bodyOf(r), [`${DIR}/.dotfile.ts`, `${DIR}/src/alpha.ts`, `${DIR}/src/beta.test.ts`, `${DIR}/src/beta.ts`]);
  });

  it('find_files: a glob without "/" matches at any depth; a gitignored file is not found, even when the glob names it', async () => {
    const ts = await findFiles({ pattern: 'beta.*' }, context());
    assert.deepEqual(bodyOf(ts), [`${DIR}/src/beta.test.ts`, `${DIR}/src/beta.ts`]);
    const logs = await findFiles({ pattern: `${DIR}/*.log` }, context());
    assert.equal(logs.isError, false);
    assert.equal(textOf(logs), `1 file matches "${DIR}/*.log":\n${DIR}/keep.log`);
    const none = await findFiles({ pattern: `${DIR}/ignored.*` }, context());
    assert.equal(none.isError, false);
    assert.match(textOf(none), /^No file matches "search-e2e\/ignored\.\*"\. Left out: files ignored by \.gitignore/);
    assert.ok(textOf(none).includes(EXCLUDED), 'the answer names the files.exclude globs in force');
    assert.equal(textOf(await findFiles({ pattern: `${DIR}/excluded/*` }, context())).startsWith('No file matches'), true, 'files.exclude holds');
  });

  it('find_files: says how many matched when the list is cut', async () => {
    const r = await findFiles({ pattern: `${DIR}/**`, max_results: 2 }, context());
    assert.match(textOf(r), /^7 files match "search-e2e\/\*\*" \(showing the first 2 by path/);
    assert.deepEqual(bodyOf(r), [`${DIR}/.dotfile.ts`, `${DIR}/.gitignore`]);
  });

  it('search_text: literal text, ignoring case, leaving out ignored and excluded files', async () => {
    const r = await searchText({ query: 'NEEDLE', include: `${DIR}/src/**` }, context());
    assert.equal(r.isError, false, textOf(r));
    assert.deepEqual(textOf(r).split('\n'), [
      '5 matches in 3 files:',
      `${DIR}/src/alpha.ts:1: const needleValue = 1;`,
      `${DIR}/src/alpha.ts:2: function Needle(): void {}`,
      `${DIR}/src/beta.test.ts:1: it("finds the needle")`,
      `${DIR}/src/beta.ts:1: needle again`,
      `${DIR}/src/beta.ts:2: const p = "(paren needle";`,
    ]);
    const all = textOf(await searchText({ query: 'needle', include: DIR + '/**' }, context()));
    assert.ok(all.includes('.dotfile.ts:1:'), 'dotfiles are searched');
    assert.ok(!all.includes('ignored.log') && !all.includes('secret.ts'), all);
  });

  it('search_text: case-sensitive, regex, and a literal that is not a valid regex', async () => {
    assert.deepEqual(bodyOf(await searchText({ query: 'Needle', case_sensitive: true, include: `${DIR}/src/**` }, context())), [`${DIR}/src/alpha.ts:2: function Needle(): void {}`]);
    assert.deepEqual(bodyOf(await searchText({ query: 'need\\w+Value\\s*=\\s*\\d', is_regex: true }, context())), [`${DIR}/src/alpha.ts:1: const needleValue = 1;`]);
    assert.deepEqual(bodyOf(await searchText({ query: '(paren' }, context())), [`${DIR}/src/beta.ts:2: const p = "(paren needle";`]);
  });

  it('search_text: include and exclude globs', async () => {
    const r = await searchText({ query: 'needle', include: `${DIR}/src/*.ts`, exclude: '*.test.ts, alpha.ts' }, context());
    assert.deepEqual(bodyOf(r), [`${DIR}/src/beta.ts:1: needle again`, `${DIR}/src/beta.ts:2: const p = "(paren needle";`]);
  });

  it('search_text: an invalid regex is an error that quotes ripgrep and says how to fix it', async () => {
    const r = await searchText({ query: '(paren', is_regex: true }, context());
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^The regular expression "\(paren" is not valid\. ripgrep says:/);
    assert.match(textOf(r), /unclosed group/);
    assert.match(textOf(r), /set is_regex to false/);
  });

  it('search_text: caps the lines and says how many matched in all', async () => {
    const r = await searchText({ query: 'needle', include: `${DIR}/many.txt`, max_results: 5 }, context());
    assert.match(textOf(r), /^50 matches in 1 file \(showing the first 5: /);
    assert.deepEqual(bodyOf(r), [1, 2, 3, 4, 5].map((n) => `${DIR}/many.txt:${n}: needle ${n}`));
  });

  it('search_text: nothing found is a plain answer naming the globs', async () => {
    const r = await searchText({ query: 'no such text anywhere 7f3a', include: `${DIR}/**`, exclude: '*.md' }, context());
    assert.equal(r.isError, false);
    assert.match(textOf(r), /^No match for "no such text anywhere 7f3a" \(literal text, ignoring case\) in files matching "search-e2e\/\*\*", except "\*\.md"\. Left out as well: /);
  });

  it('resolves promptly when stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    const r = await searchText({ query: 'needle' }, context(stop.signal));
    assert.equal(r.isError, true);
  });

  it('falls back to the workspace API without ripgrep', async () => {
    setRipgrepPathForTests(undefined);
    try {
      const found = await findFiles({ pattern: `${DIR}/src/*.ts` }, context());
      assert.deepEqual(bodyOf(found), [`${DIR}/src/alpha.ts`, `${DIR}/src/beta.test.ts`, `${DIR}/src/beta.ts`]);
      const r = await searchText({ query: 'NEEDLE', include: `${DIR}/src/**`, exclude: '*.test.ts' }, context());
      assert.deepEqual(textOf(r).split('\n'), [
        '4 matches in 2 files:',
        `${DIR}/src/alpha.ts:1: const needleValue = 1;`,
        `${DIR}/src/alpha.ts:2: function Needle(): void {}`,
        `${DIR}/src/beta.ts:1: needle again`,
        `${DIR}/src/beta.ts:2: const p = "(paren needle";`,
      ]);
      const excluded = textOf(await searchText({ query: 'excluded by files.exclude' }, context()));
      assert.match(excluded, /^No match/, 'files.exclude holds in the fallback too');
      const invalid = await searchText({ query: '(paren', is_regex: true }, context());
      assert.equal(invalid.isError, true);
      assert.match(textOf(invalid), /is_regex to false/);
    } finally {
      setRipgrepPathForTests(null);
    }
  });
});
