// `npm test`: type-check, lint, build, then every test tier, with one closing count line.
// Tiers: unit (pure src/core, src/mcp, src/providers), integration (real MCP servers and the
// scripted Messages API server), conformance (the MCP project's client suite against Quiver's
// McpManager: see scripts/conformance/run.mjs), e2e (a real VS Code: see scripts/e2e/run.mjs).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Mocha from 'mocha';

const root = resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const wants = (tier) => only.length === 0 || only.includes(tier);

function step(title, cmd, args) {
  console.log(`\n▶ ${title}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`✖ ${title} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

function testFiles(dir) {
  let found = [];
  let entries;
  try { entries = readdirSync(dir); } catch { return found; }
  for (const e of entries) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) found = found.concat(testFiles(p));
    else if (e.endsWith('.test.js')) found.push(p);
  }
  return found.sort();
}

function runMocha(tier, timeout) {
  const files = testFiles(join(root, 'out', 'test', tier));
  if (files.length === 0) return Promise.resolve({ passed: 0, failed: 0 });
  const mocha = new Mocha({ timeout, reporter: 'spec' });
  for (const f of files) mocha.addFile(f);
  console.log(`\n▶ ${tier} tests (${files.length} files)`);
  return new Promise((done) => {
    const runner = mocha.run(() => done({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0 }));
  });
}

const npx = (bin, ...args) => ['node', [join(root, 'node_modules', '.bin', bin), ...args]];

step('type-check and compile (tsc)', ...npx('tsc', '-p', '.'));
step('type-check the webview (tsc)', ...npx('tsc', '-p', 'webview', '--noEmit'));
step('lint (eslint)', ...npx('eslint', '.', '--max-warnings', '0'));
step('bundle (esbuild)', 'node', ['esbuild.mjs']);

const counts = {};
if (wants('unit')) counts.unit = await runMocha('unit', 10_000);
if (wants('integration')) counts.integration = await runMocha('integration', 120_000);
if (wants('conformance')) {
  const { runConformance } = await import('./conformance/run.mjs');
  counts.conformance = await runConformance();
}
if (wants('e2e')) {
  const { runE2e } = await import('./e2e/run.mjs').catch(() => ({ runE2e: undefined }));
  if (runE2e) counts.e2e = await runE2e();
}

let passed = 0;
let failed = 0;
console.log('\nTest tiers:');
for (const [tier, c] of Object.entries(counts)) {
  console.log(`  ${tier.padEnd(12)} ${c.passed} passed, ${c.failed} failed`);
  passed += c.passed;
  failed += c.failed;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
