import assert from 'node:assert/strict';
import {
  DEFAULT_SCOPE, MatchCollector, anchorGlob, enabledGlobs, fallbackGlob, findFilesArgs, folderGlobs, formatFileList, formatSearch, includeMatcher, includeRules, joinGlobs,
  previewLine, queryRegExp, ripgrepFailure, searchGlobs, searchTextArgs, splitGlobs, type SearchScope,
} from '../../../src/core/editorTools';

/** The `-g` values of an argument list, in order. */
const globsOf = (args: readonly string[]): string[] => args.flatMap((a, i) => (args[i - 1] === '-g' ? [a] : []));

const begin = (path: string) => JSON.stringify({ type: 'begin', data: { path: { text: `./${path}` } } });
const match = (path: string, line: number, text: string, start = 0) =>
  JSON.stringify({ type: 'match', data: { path: { text: `./${path}` }, lines: { text: `${text}\n` }, line_number: line, absolute_offset: 0, submatches: [{ match: { text: 'x' }, start, end: start + 1 }] } });
const end = (path: string) => JSON.stringify({ type: 'end', data: { path: { text: `./${path}` }, binary_offset: null, stats: {} } });
/** What rg --json prints for one file with matches on `lines`. */
const file = (path: string, lines: readonly number[]) => [begin(path), ...lines.map((l) => match(path, l, `line ${l} of ${path}`)), end(path)];

describe('editor search: ripgrep arguments', () => {
  it('takes the exclude globs that are on, and skips false and `when` entries', () => {
    assert.deepEqual(enabledGlobs({ '**/.git': true, '**/node_modules': true, off: false, '**/*.js': { when: '$(basename).ts' } }), ['**/.git', '**/node_modules']);
    assert.deepEqual(enabledGlobs(undefined), []);
    assert.deepEqual(enabledGlobs('nope'), []);
  });

  it('anchors setting globs at the folder as VS Code does', () => {
    assert.equal(anchorGlob('**/node_modules'), '**/node_modules');
    assert.equal(anchorGlob('build'), '/build');
    assert.equal(anchorGlob('/out'), '/out');
  });

  it('splits comma lists outside braces', () => {
    assert.deepEqual(splitGlobs('*.ts, src/**/*.{js,mjs} ,,'), ['*.ts', 'src/**/*.{js,mjs}']);
    assert.deepEqual(splitGlobs(undefined), []);
    assert.deepEqual(splitGlobs(''), []);
  });

  it('gives a multi-root folder the globs that name it, without the name', () => {
    const names = ['app', 'lib'];
    assert.deepEqual(folderGlobs(['app/src/**', '*.md'], 'app', names), ['src/**', '*.md']);
    assert.deepEqual(folderGlobs(['app/src/**', '*.md'], 'lib', names), ['*.md']);
    assert.equal(folderGlobs(['app/src/**'], 'lib', names), null);
    assert.deepEqual(folderGlobs([], 'lib', names), []);
    assert.deepEqual(folderGlobs(['app/src/**'], 'app', ['app']), ['app/src/**'], 'a single folder keeps the glob as written');
  });

  it('lists files with hidden ones, .gitignore without a .git folder, the include file, and the excludes as -g', () => {
    const scope: SearchScope = { ...DEFAULT_SCOPE, excludes: ['**/node_modules', 'build'] };
    const args = findFilesArgs(scope, '/tmp/x/include.ignore');
    assert.equal(args[0], '--files');
    for (const flag of ['--hidden', '--no-require-git', '--no-config', '--no-ignore-parent', '--no-ignore-global', '--follow']) assert.ok(args.includes(flag), flag);
    assert.ok(!args.includes('--no-ignore'));
    assert.deepEqual(args.slice(args.indexOf('--ignore-file'), args.indexOf('--ignore-file') + 2), ['--ignore-file', '/tmp/x/include.ignore']);
    assert.deepEqual(globsOf(args), ['!**/.git', '!**/node_modules', '!/build'], 'no positive -g: it would override .gitignore');
    assert.deepEqual(args.slice(-2), ['--', '.']);
    assert.ok(!findFilesArgs(scope).includes('--ignore-file'));
  });

  it('puts include globs in an ignore file that leaves out everything else', () => {
    assert.equal(includeRules([]), undefined);
    assert.equal(includeRules(['src/**/*.ts', '*.md', '#odd']), '*\n!*/\n!src/**/*.ts\n!*.md\n!\\#odd\n');
  });

  it('matches include globs as ripgrep matches gitignore globs', () => {
    const cases: [string, string, boolean][] = [
      ['*.ts', 'a.ts', true], ['*.ts', 'src/deep/a.ts', true], ['*.ts', 'a.tsx', false],
      ['src/*.ts', 'src/a.ts', true], ['src/*.ts', 'lib/src/a.ts', false], ['src/*.ts', 'src/x/a.ts', false],
      ['/src/*.ts', 'src/a.ts', true], ['**/src/*.ts', 'lib/src/a.ts', true],
      ['src/**', 'src/x/y.ts', true], ['src/**', 'srcx/y.ts', false], ['src/**/index.*', 'src/index.js', true], ['src/**/index.*', 'src/a/b/index.ts', true],
      ['**', 'any/thing', true], ['*.{ts,js}', 'x/a.js', true], ['*.{ts,js}', 'x/a.md', false],
      ['file?.txt', 'file1.txt', true], ['file?.txt', 'file10.txt', false], ['[ab].ts', 'b.ts', true], ['[!ab].ts', 'b.ts', false], ['[!ab].ts', 'c.ts', true],
      ['src/', 'src/a.ts', false], ['src', 'src/a.ts', false], ['a.b', 'axb', false], ['a\\*b', 'a*b', true],
    ];
    for (const [glob, path, expected] of cases) assert.equal(includeMatcher([glob])(path), expected, `${glob} on ${path}`);
    assert.equal(includeMatcher([])('anything'), true);
    assert.equal(includeMatcher(['*.md', 'src/**'])('src/a.ts'), true);
  });

  it('passes --no-ignore when search.useIgnoreFiles is off, and --follow only when symlinks are followed', () => {
    const args = findFilesArgs({ ...DEFAULT_SCOPE, useIgnoreFiles: false, followSymlinks: false, useGlobalIgnoreFiles: true });
    assert.ok(args.includes('--no-ignore'));
    assert.ok(!args.includes('--no-ignore-parent'));
    assert.ok(!args.includes('--no-ignore-global'));
    assert.ok(!args.includes('--follow'));
    assert.deepEqual(globsOf(args), ['!**/.git'], '.git stays out even without ignore files');
  });

  it('searches literal text ignoring case by default', () => {
    const args = searchTextArgs({ query: '-foo(' }, DEFAULT_SCOPE);
    assert.equal(args[0], '--json');
    assert.ok(args.includes('--ignore-case'));
    assert.ok(args.includes('--fixed-strings'));
    assert.ok(!args.includes('--engine'));
    assert.deepEqual(args.slice(-4), ['--regexp', '-foo(', '--', '.'], 'a query that starts with "-" is still the query');
  });

  it('searches a regular expression case-sensitively with include and exclude globs before the settings excludes', () => {
    const input = { query: 'a.+b', is_regex: true, case_sensitive: true, include: 'src/**/*.ts, *.md', exclude: '!**/*.test.ts' };
    const args = searchTextArgs(input, { ...DEFAULT_SCOPE, excludes: ['**/node_modules'] }, { includeFile: '/tmp/i' });
    assert.ok(args.includes('--case-sensitive'));
    assert.ok(!args.includes('--fixed-strings'));
    assert.deepEqual(args.slice(args.indexOf('--engine'), args.indexOf('--engine') + 2), ['--engine', 'auto']);
    assert.deepEqual(args.slice(args.indexOf('--ignore-file'), args.indexOf('--ignore-file') + 2), ['--ignore-file', '/tmp/i']);
    assert.deepEqual(globsOf(args), ['!**/*.test.ts', '!**/.git', '!**/node_modules']);
    assert.deepEqual(searchGlobs(input), { include: ['src/**/*.ts', '*.md'], exclude: ['**/*.test.ts'] });
    assert.deepEqual(globsOf(searchTextArgs(input, DEFAULT_SCOPE, { exclude: ['x/**'] })), ['!x/**', '!**/.git'], 'the exclude of one folder');
  });

  it('keeps the meaning of a glob for the workspace API fallback', () => {
    assert.equal(fallbackGlob('*.ts'), '**/*.ts');
    assert.equal(fallbackGlob('src/*.ts'), 'src/*.ts');
    assert.equal(fallbackGlob('/src/*.ts'), 'src/*.ts');
    assert.equal(joinGlobs([]), undefined);
    assert.equal(joinGlobs(['a']), 'a');
    assert.equal(joinGlobs(['a', '**/b']), '{a,**/b}');
  });

  it('builds the fallback RegExp: literal text escaped, case as asked, an invalid one explained', () => {
    const literal = queryRegExp({ query: 'a.b(' });
    assert.ok(literal instanceof RegExp);
    assert.ok(literal.test('xA.B(y'));
    assert.ok(!literal.test('axb('));
    const sensitive = queryRegExp({ query: 'Foo', case_sensitive: true });
    assert.ok(sensitive instanceof RegExp && !sensitive.test('foo'));
    const invalid = queryRegExp({ query: 'foo(', is_regex: true });
    assert.equal(typeof invalid, 'string');
    assert.match(String(invalid), /"foo\(" is not valid/);
    assert.match(String(invalid), /is_regex to false/);
  });
});

describe('editor search: reading ripgrep output', () => {
  it('counts every match and keeps the first lines by path, whatever order the files came in', () => {
    const files = [file('src/b.ts', [3, 9]), file('src/a.ts', [1, 2, 5]), file('docs/z.md', [7]), file('src/c.ts', [4])];
    const runs = [files, [...files].reverse(), [files[2]!, files[0]!, files[3]!, files[1]!]];
    const results = runs.map((order) => {
      const c = new MatchCollector(4);
      for (const line of order.flat()) assert.equal(c.feed(line), true);
      return c.result();
    });
    for (const r of results) {
      assert.equal(r.matchCount, 7);
      assert.equal(r.fileCount, 4);
      assert.equal(r.stopped, false);
      assert.deepEqual(r.files.map((f) => [f.path, f.lines.map((l) => l.line)]), [['docs/z.md', [7]], ['src/a.ts', [1, 2, 5]]]);
    }
    assert.equal(results[0]?.files[1]?.lines[0]?.text, 'line 1 of src/a.ts');
  });

  it('stays bounded on a large output and still keeps the first lines', () => {
    const c = new MatchCollector(10);
    for (let i = 999; i >= 0; i--) for (const line of file(`f${String(i).padStart(4, '0')}.ts`, [1, 2, 3])) c.feed(line);
    const r = c.result();
    assert.equal(r.matchCount, 3000);
    assert.equal(r.fileCount, 1000);
    assert.deepEqual(r.files.map((f) => f.path), ['f0000.ts', 'f0001.ts', 'f0002.ts', 'f0003.ts']);
    assert.deepEqual(r.files.map((f) => f.lines.length), [3, 3, 3, 1]);
  });

  it('neither counts nor keeps a file it does not accept', () => {
    const c = new MatchCollector(5, 100, (path) => path.endsWith('.ts'));
    for (const line of [...file('a.ts', [1]), ...file('keep.log', [1, 2]), ...file('b.ts', [3])]) c.feed(line);
    const r = c.result();
    assert.deepEqual([r.matchCount, r.fileCount], [2, 2]);
    assert.deepEqual(r.files.map((f) => f.path), ['a.ts', 'b.ts']);
  });

  it('stops counting at its limit', () => {
    const c = new MatchCollector(5, 6);
    const fed = [...file('a', [1, 2, 3, 4]), ...file('b', [1, 2, 3, 4])].map((l) => c.feed(l));
    assert.equal(fed.filter((ok) => !ok).length > 0, true);
    const r = c.result();
    assert.equal(r.stopped, true);
    assert.equal(r.matchCount, 6);
  });

  it('decodes paths and lines ripgrep sends as bytes, and ignores what is not JSON', () => {
    const c = new MatchCollector(5);
    const bytes = (s: string) => ({ bytes: Buffer.from(s, 'latin1').toString('base64') });
    c.feed(JSON.stringify({ type: 'begin', data: { path: bytes('./odd.txt') } }));
    c.feed(JSON.stringify({ type: 'match', data: { path: bytes('./odd.txt'), lines: bytes('plain line\r\n'), line_number: 2, submatches: [] } }));
    c.feed('{"type":"match" broken');
    c.feed('');
    c.feed(JSON.stringify({ type: 'end', data: { path: bytes('./odd.txt') } }));
    const r = c.result();
    assert.deepEqual(r.files, [{ path: 'odd.txt', lines: [{ line: 2, text: 'plain line' }] }]);
  });

  it('shows a long line around its first match, counting the offset in bytes', () => {
    const line = `${'é'.repeat(400)}NEEDLE${'x'.repeat(400)}`;
    const shown = previewLine(`${line}\n`, Buffer.byteLength('é'.repeat(400)), 100);
    assert.ok(shown.startsWith('…') && shown.endsWith('…'));
    assert.ok(shown.includes('NEEDLE'));
    assert.equal(shown.length, 102);
    assert.equal(previewLine('short\r\n'), 'short');
    assert.ok(previewLine('y'.repeat(1000), 0, 50).startsWith('yyy'));
  });
});

describe('editor search: answers', () => {
  const base = { query: 'needle', isRegex: false, caseSensitive: false, include: [], exclude: [], max: 3, stopped: false, leftOut: 'files ignored by .gitignore (and .ignore), .git folders' };

  it('heads the lines with the counts and says when they are cut', () => {
    const files = [{ label: 'a.ts', lines: [{ line: 1, text: 'a needle' }, { line: 4, text: 'needle b' }] }, { label: 'b.ts', lines: [{ line: 2, text: 'c needle' }] }];
    assert.equal(formatSearch({ ...base, files, matchCount: 3, fileCount: 2 }), '3 matches in 2 files:\na.ts:1: a needle\na.ts:4: needle b\nb.ts:2: c needle');
    const cut = formatSearch({ ...base, files, matchCount: 10, fileCount: 4 });
    assert.match(cut, /^10 matches in 4 files \(showing the first 3: narrow the query, include or exclude, or raise max_results\):\n/);
    assert.match(formatSearch({ ...base, files: files.slice(1), matchCount: 1, fileCount: 1 }), /^1 match in 1 file:/);
    assert.match(formatSearch({ ...base, files, matchCount: 100000, fileCount: 9, stopped: true }), /^More than 100000 matches in at least 9 files/);
  });

  it('says what was searched when nothing matched', () => {
    const text = formatSearch({ ...base, isRegex: true, caseSensitive: true, include: ['src/**'], exclude: ['*.md'], files: [], matchCount: 0, fileCount: 0 });
    assert.equal(text, 'No match for "needle" (regular expression, case-sensitive) in files matching "src/**", except "*.md". Left out as well: files ignored by .gitignore (and .ignore), .git folders.');
  });

  it('lists files with their count, cut at max with a note', () => {
    assert.equal(formatFileList({ pattern: '*.ts', paths: ['a.ts', 'b.ts'], max: 5, stopped: false, leftOut: 'x' }), '2 files match "*.ts":\na.ts\nb.ts');
    assert.equal(formatFileList({ pattern: '*.ts', paths: ['a.ts', 'b.ts', 'c.ts'], max: 2, stopped: false, leftOut: 'x' }), '3 files match "*.ts" (showing the first 2 by path: narrow the pattern or raise max_results):\na.ts\nb.ts');
    assert.match(formatFileList({ pattern: 'src/*.ts', paths: [], max: 2, stopped: false, leftOut: 'x' }), /^No file matches "src\/\*\.ts"\. Left out: x\. .*"\*\*\/src\/\*\.ts"/);
  });

  it('turns ripgrep regex and glob errors into advice, and lets file errors pass', () => {
    const regex = ripgrepFailure('rg: regex parse error:\n    (?:foo()\n       ^\nerror: unclosed group\n', 'foo(');
    assert.match(regex ?? '', /^The regular expression "foo\(" is not valid\. ripgrep says:\nregex parse error:/);
    assert.match(regex ?? '', /error: unclosed group/);
    assert.match(regex ?? '', /set is_regex to false/);
    assert.match(ripgrepFailure("rg: error parsing glob '[': unclosed character class; missing ']'\n") ?? '', /^A glob is not valid\./);
    assert.equal(ripgrepFailure('rg: ./secret: Permission denied (os error 13)\n'), undefined);
  });
});
