// A tiny runner for the workbench UI tests in test/e2e/ui/*.ui.mjs. A test file exports
// `default (t) => { t.test(name, fn); t.skip(name, fn); }`; tests run in file order on one page,
// each with a time limit, and each leaves a screenshot (passed or failed) in the screenshot folder.
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);

function withTimeout(promise, ms, what) {
  let timer;
  const limit = new Promise((_, fail) => { timer = setTimeout(() => fail(new Error(`${what} timed out after ${ms / 1000} s`)), ms); });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * Collects the tests of every *.ui.mjs file under `dir`, in name order; QUIVER_E2E_ONLY=chat,errors
 * keeps only those files (for a quick run while working on them; `npm test` runs them all).
 */
export async function collectUiTests(dir) {
  const tests = [];
  // `chat` and `chat.ui.mjs` both name test/e2e/ui/chat.ui.mjs.
  const only = process.env.QUIVER_E2E_ONLY?.split(',').map((f) => basename(f.trim(), '.ui.mjs')).filter((f) => f !== '');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ui.mjs') && (!only || only.includes(basename(f, '.ui.mjs')))).sort()) {
    const mod = await import(pathToFileURL(join(dir, file)).href);
    const add = (skip) => (name, fn) => tests.push({ file: basename(file, '.ui.mjs'), name, fn, skip });
    mod.default({ test: add(false), skip: add(true) });
  }
  return tests;
}

/**
 * Runs `tests` in order; `open(file)` resolves to { ctx: { page, … }, close() } and is called once
 * per test file, before its first test. `afterEach(ctx)` runs after every test and returns what
 * the test left wrong (a message) or undefined; it also cleans that up, so one failing test does
 * not make the next ones fail. Returns { passed, failed, pending, failures }.
 */
export async function runUiTests(tests, open, { screenshots, timeoutMs = 60_000, root = process.cwd(), afterEach = async () => undefined }) {
  mkdirSync(screenshots, { recursive: true });
  const result = { passed: 0, failed: 0, pending: 0, failures: [] };
  let n = 0;
  let current;
  try {
    for (const t of tests) {
      n++;
      if (!t.skip && current?.file !== t.file) {
        await current?.close();
        current = undefined;
        try {
          current = { file: t.file, ...(await open(t.file)) };
        } catch (err) {
          current = { file: t.file, ctx: undefined, close: async () => {}, error: String(err) };
          console.log(`  ✖ ${t.file}: opening the workbench failed — ${String(err)}`);
        }
      }
      await runOne(t, n);
    }
  } finally {
    await current?.close();
  }
  return result;

  async function runOne(t, n) {
    const ctx = current?.ctx;
    const title = `${t.file}: ${t.name}`;
    if (t.skip) {
      result.pending++;
      console.log(`  - ${title} (pending)`);
      return;
    }
    if (!ctx) {
      result.failed++;
      result.failures.push({ title, error: `not run: ${current?.error ?? 'no workbench'}` });
      console.log(`  ✖ ${title} (not run: the workbench did not open)`);
      return;
    }
    const t0 = Date.now();
    let error;
    try {
      await withTimeout(t.fn(ctx), timeoutMs, title);
    } catch (err) {
      error = err instanceof Error ? err : new Error(String(err));
      // eslint-disable-next-line no-control-regex -- Playwright colours its call log
      error.message = error.message.replace(/\x1b\[[0-9;]*m/g, '');
    }
    const leftOver = await afterEach(ctx);
    if (leftOver) error = new Error(error ? `${error.message}\n${leftOver}` : leftOver);
    const shot = join(screenshots, `${String(n).padStart(2, '0')}-${t.file}-${slug(t.name)}.png`);
    await ctx.page.screenshot({ path: shot }).catch(() => undefined);
    const ms = Date.now() - t0;
    if (error) {
      result.failed++;
      result.failures.push({ title, error: error.message });
      console.log(`  ✖ ${title} (${ms} ms) — ${relative(root, shot)}\n      ${error.message.split('\n').join('\n      ')}`);
    } else {
      result.passed++;
      console.log(`  ✔ ${title} (${ms} ms) — ${relative(root, shot)}`);
    }
  }
}
