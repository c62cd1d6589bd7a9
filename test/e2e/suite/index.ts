// Entry point of the extension-host e2e suite, loaded by the workbench through the
// `extensionTestsPath` payload (see scripts/e2e/run.mjs). It runs every
// out/test/e2e/suite/**/*.test.js with Mocha inside the real extension host, and writes
// { passed, failed, pending, failures } to the file named by QUIVER_E2E_REPORT, because the
// host's console reaches only the page console.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

interface Failure { title: string; error: string }
interface Outcome { title: string; state: 'passed' | 'failed' | 'pending'; ms?: number }
export interface SuiteReport { passed: number; failed: number; pending: number; failures: Failure[]; tests: Outcome[] }

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) found.push(...testFiles(p));
    else if (e.endsWith('.test.js')) found.push(p);
  }
  return found;
}

export function run(): Promise<void> {
  const reportFile = process.env.QUIVER_E2E_REPORT;
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  for (const f of testFiles(__dirname)) mocha.addFile(f);
  const report: SuiteReport = { passed: 0, failed: 0, pending: 0, failures: [], tests: [] };
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run(() => {
        if (reportFile) writeFileSync(reportFile, JSON.stringify(report, null, 2));
        if (report.failed > 0) reject(new Error(`${report.failed} extension-host test(s) failed`));
        else resolve();
      });
      runner.on('pass', (test: Mocha.Test) => {
        report.passed++;
        report.tests.push({ title: test.fullTitle(), state: 'passed', ms: test.duration ?? 0 });
      });
      runner.on('pending', (test: Mocha.Test) => {
        report.pending++;
        report.tests.push({ title: test.fullTitle(), state: 'pending' });
      });
      runner.on('fail', (test: Mocha.Runnable, err: unknown) => {
        report.failed++;
        const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
        report.failures.push({ title: test.fullTitle(), error });
        report.tests.push({ title: test.fullTitle(), state: 'failed', ms: test.duration ?? 0 });
      });
    } catch (err) {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      if (reportFile) writeFileSync(reportFile, JSON.stringify({ passed: 0, failed: 1, pending: 0, failures: [{ title: 'loading the suite', error }], tests: [] }, null, 2));
      reject(err instanceof Error ? err : new Error(error));
    }
  });
}
