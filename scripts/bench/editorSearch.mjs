// editor__search_text and editor__find_files on a 10,000-file workspace: ripgrep run directly with
// the arguments Quiver builds (output drained, not read) against Quiver's path as far as it runs
// outside VS Code: the pure argument builder (out/src/core/editorTools), the same ripgrep, the
// include file and line splitting of src/extension/editorTools/ripgrep.ts, the collector and the
// answer's text.
// The ripgrep is the one VS Code ships, from the code-server install of the e2e tier (.cache/).
//   node scripts/bench/editorSearch.mjs [--quick]    (prints a markdown table; `npm run bench -- --only editorSearch` too)
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCompiled } from './compiled.mjs';

const FILES = 10_000;
const DEPENDENCY_FILES = 500; // of FILES, under node_modules/: search.exclude leaves them out
const NEEDLE = 'quiverNeedleToken';
const NEEDLE_FILES = 40;
// VS Code's defaults of files.exclude and search.exclude.
const DEFAULT_EXCLUDES = ['**/.git', '**/.svn', '**/.hg', '**/CVS', '**/.DS_Store', '**/Thumbs.db', '**/node_modules', '**/bower_components', '**/*.code-search'];
const CASES = [
  { label: 'search_text: rare literal', tool: 'search_text', input: { query: NEEDLE } },
  { label: 'search_text: common literal (cap 200)', tool: 'search_text', input: { query: 'return' } },
  { label: 'search_text: regex', tool: 'search_text', input: { query: 'function \\w+Handler\\(', is_regex: true } },
  { label: 'search_text: literal, include glob', tool: 'search_text', input: { query: NEEDLE, include: 'src/pkg1*/**/*.ts' } },
  { label: 'find_files: **/*.test.ts', tool: 'find_files', input: { pattern: '**/*.test.ts' } },
];

export function ripgrepBinary(repoRoot) {
  const modules = resolve(repoRoot, '.cache', 'code-server', 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules', '@vscode');
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  return [join(modules, 'ripgrep', 'bin', exe), join(modules, 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe)].find((p) => existsSync(p));
}

// ---- the workspace ---------------------------------------------------------------------------

function fileText(next, index, needleLine) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const names = ['parse', 'render', 'load', 'save', 'resolve', 'update', 'query', 'format'];
  const lines = [`import { ${pick(names)}Util } from '../shared/util${index % 50}';`, `import type { Options } from './options';`, ''];
  while (lines.length < 40) {
    const name = `${pick(names)}${Math.floor(next() * 1000)}`;
    const kind = next();
    if (kind < 0.3) lines.push(`export function ${name}Handler(input: Options): number {`, `  const value = input.size * ${Math.floor(next() * 97)};`, '  return value;', '}', '');
    else if (kind < 0.6) lines.push(`// ${name}: keeps the ${pick(names)} step apart from the ${pick(names)} step.`, `export const ${name} = (x: number) => x + ${Math.floor(next() * 10)};`, '');
    else lines.push(`class ${name[0].toUpperCase()}${name.slice(1)} {`, `  run(): string { return '${pick(names)}'; }`, '}', '');
  }
  lines.length = 40;
  if (needleLine !== undefined) lines[needleLine] = `const marker = '${NEEDLE}'; // found by the bench`;
  return `${lines.join('\n')}\n`;
}

async function makeWorkspace(seededRandom) {
  const dir = await mkdtemp(join(tmpdir(), 'quiver-bench-search-'));
  const next = seededRandom(20_261_130);
  const needles = new Set();
  while (needles.size < NEEDLE_FILES) needles.add(Math.floor(next() * FILES));
  const writes = [];
  for (let i = 0; i < FILES; i++) {
    const dep = i >= FILES - DEPENDENCY_FILES;
    const folder = dep ? join(dir, 'node_modules', `dep${i % 10}`) : join(dir, 'src', `pkg${Math.floor(i / 100)}`);
    const name = dep ? `index${i}.js` : i % 10 === 0 ? `module${i}.test.ts` : `module${i}.ts`;
    writes.push({ folder, file: join(folder, name), text: fileText(next, i, needles.has(i) ? Math.floor(next() * 40) : undefined) });
  }
  for (const folder of new Set(writes.map((w) => w.folder))) await mkdir(folder, { recursive: true });
  for (let i = 0; i < writes.length; i += 200) await Promise.all(writes.slice(i, i + 200).map((w) => writeFile(w.file, w.text)));
  await writeFile(join(dir, '.gitignore'), 'dist/\n*.log\n');
  return dir;
}

// ---- runs ------------------------------------------------------------------------------------

/** rg with its output drained; resolves to the bytes it printed. */
function rgDirect(rg, args, cwd) {
  return new Promise((done, fail) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (b) => { bytes += b.length; });
    child.on('error', fail);
    child.on('close', () => done(bytes));
  });
}

/** rg with every line handed to onLine (false: stop it), as src/extension/editorTools/ripgrep.ts reads it. */
function rgLines(rg, args, cwd, onLine) {
  return new Promise((done, fail) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let rest = '';
    let stopped = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      if (stopped) return;
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!onLine(line)) { stopped = true; child.kill(); return; }
      }
    });
    child.on('error', fail);
    child.on('close', () => { if (!stopped && rest) onLine(rest); done(); });
  });
}

function includeGlobs(m, c) {
  return c.tool === 'find_files' ? m.splitGlobs(c.input.pattern) : m.searchGlobs(c.input).include;
}

function argsOf(m, c, scope, includeFile) {
  return c.tool === 'find_files' ? m.findFilesArgs(scope, includeFile) : m.searchTextArgs(c.input, scope, { includeFile });
}

/** As src/extension/editorTools/ripgrep.ts withIncludeFile: the include globs in a temporary ignore file. */
async function withIncludeFile(rules, fn) {
  if (rules === undefined) return fn(undefined);
  const dir = await mkdtemp(join(tmpdir(), 'quiver-rg-'));
  try {
    const file = join(dir, 'include.ignore');
    await writeFile(file, rules);
    return await fn(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Quiver's path for one case; resolves to the answer's text. */
async function quiverRun(m, rg, c, scope, cwd) {
  const max = m.DEFAULT_MAX_RESULTS;
  const globs = includeGlobs(m, c);
  const included = m.includeMatcher(globs);
  if (c.tool === 'find_files') {
    const paths = [];
    await withIncludeFile(m.includeRules(globs), (file) => rgLines(rg, argsOf(m, c, scope, file), cwd, (line) => {
      const rel = m.stripDotSlash(line);
      if (rel && included(rel)) paths.push(rel);
      return paths.length < m.COUNT_LIMIT;
    }));
    paths.sort(m.byPath);
    return m.formatFileList({ pattern: c.input.pattern, paths, max, stopped: false, leftOut: m.leftOutText(scope.excludes, true) });
  }
  const collector = new m.MatchCollector(max, m.COUNT_LIMIT, included);
  await withIncludeFile(m.includeRules(globs), (file) => rgLines(rg, argsOf(m, c, scope, file), cwd, (line) => collector.feed(line)));
  const r = collector.result();
  const { exclude } = m.searchGlobs(c.input);
  return m.formatSearch({
    query: c.input.query, isRegex: c.input.is_regex === true, caseSensitive: false, include: globs, exclude,
    files: r.files.map((f) => ({ label: f.path, lines: f.lines })), matchCount: r.matchCount, fileCount: r.fileCount, stopped: r.stopped, max, leftOut: '',
  });
}

/** Times `a` and `b` alternately (so both see the same load), after one warm-up run of each. */
async function timedPair(runs, a, b) {
  await a();
  await b();
  const ms = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const t0 = performance.now();
      await fn();
      ms[k].push(performance.now() - t0);
    }
  }
  return ms.map((list) => {
    list.sort((x, y) => x - y);
    const at = (q) => list[Math.min(list.length - 1, Math.ceil(q * list.length) - 1)];
    return { median: at(0.5), p95: at(0.95) };
  });
}

export async function run(opts) {
  const title = `Editor search tools on a ${FILES.toLocaleString('en')}-file workspace (ms)`;
  const columns = ['case', 'answer', 'rg direct median', 'rg direct p95', 'Quiver median', 'Quiver p95', 'overhead (median)'];
  const rg = ripgrepBinary(opts.repoRoot);
  if (rg === undefined) {
    return { title, columns, rows: [], notes: ['skipped: no ripgrep under .cache/code-server (the e2e tier installs code-server there: node scripts/e2e/editor.mjs)'] };
  }
  const m = await loadCompiled(opts.repoRoot, 'src/core/editorTools/index.js');
  const { seededRandom } = await loadCompiled(opts.repoRoot, 'test/fixtures/seededRandom.js');
  const runs = opts.quick ? 5 : 20;
  const t0 = performance.now();
  const dir = await makeWorkspace(seededRandom);
  const made = performance.now() - t0;
  const scope = { ...m.DEFAULT_SCOPE, excludes: DEFAULT_EXCLUDES };
  const rows = [];
  try {
    for (const c of CASES) {
      const answer = (await quiverRun(m, rg, c, scope, dir)).split('\n')[0].replace(/ \(showing.*$/, '').replace(/:$/, '');
      const [direct, quiver] = await withIncludeFile(m.includeRules(includeGlobs(m, c)), (file) => {
        const args = argsOf(m, c, scope, file);
        return timedPair(runs, () => rgDirect(rg, args, dir), () => quiverRun(m, rg, c, scope, dir));
      });
      rows.push([c.label, answer, direct.median.toFixed(1), direct.p95.toFixed(1), quiver.median.toFixed(1), quiver.p95.toFixed(1), `${(quiver.median - direct.median).toFixed(1)}`]);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    title, columns, rows,
    notes: [
      `${runs} timed runs per cell after one warm-up, the two paths alternating; p95 is nearest-rank; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the end on ${cpus().length} cores. Workspace written in ${(made / 1000).toFixed(1)} s: ${FILES - DEPENDENCY_FILES} TS files of 40 lines under src/ (every 10th a .test.ts), ${DEPENDENCY_FILES} under node_modules/ (left out by search.exclude), the needle in ${NEEDLE_FILES} files.`,
      `ripgrep: ${rg}`,
      'rg direct: the same arguments (include globs in an ignore file written once), output drained unread. Quiver: the ignore file written and removed, the same run, each line read (MatchCollector for search_text), the answer formatted.',
    ],
  };
}

/** A Table as a markdown table. */
export function markdown({ title, columns, rows, notes }) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [`### ${title}`, '', line(columns), line(columns.map((_, i) => (i < 2 ? '---' : '---:'))), ...rows.map(line), '', ...(notes ?? []).map((n) => `- ${n}`)].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const repoRoot = resolve(import.meta.dirname, '..', '..');
  run({ repoRoot, quick: process.argv.includes('--quick') }).then((table) => console.log(markdown(table)), (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  });
}
