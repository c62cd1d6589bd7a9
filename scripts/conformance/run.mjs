// The conformance tier of `npm test`: every client scenario of the pinned MCP conformance suite
// (`@modelcontextprotocol/conformance`, a devDependency) run against test/conformance/client.mjs,
// which drives Quiver's own McpManager and OAuth code from out/ (compiled by `npm test` first).
// The suite needs Node ≥ 22 (the Node 24 the e2e tier installs runs it); the client runs on the
// Node of `npm test`. Scenarios the issue leaves optional (drafts and extensions) are run and
// listed, but do not fail the tier.
//
//   node scripts/conformance/run.mjs [scenario …]
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { ensureNode24, ROOT } from '../e2e/editor.mjs';

const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'test', 'conformance', 'client.mjs'))}`;
/** Draft and extension scenarios: welcome, not required. */
const OPTIONAL = [/^auth\/offline-access-/, /^auth\/client-credentials-/, /^auth\/cross-app-access-/];
const isOptional = (scenario) => OPTIONAL.some((re) => re.test(scenario));

function listScenarios(node) {
  const r = spawnSync(node, [SUITE, 'list', '--client'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`conformance list failed: ${r.stderr}`);
  return [...`${r.stdout}${r.stderr}`.matchAll(/^\s+- (\S+) \[([^\]]*)\]/gm)].map((m) => ({ name: m[1], specs: m[2] }));
}

function runScenario(node, name) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(node, [SUITE, 'client', '--command', CLIENT, '--scenario', name, '--timeout', '60000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => { output += c; });
    child.stderr.on('data', (c) => { output += c; });
    child.on('close', () => {
      const plain = stripVTControlCharacters(output);
      const checks = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(plain);
      const failures = [...plain.matchAll(/\] FAILURE (.+)$/gm)].map((m) => m[1].trim());
      done({ name, passed: /OVERALL: PASSED/.test(plain), checks: checks ? `${checks[1]}/${checks[2]}` : '–', failures, seconds: (Date.now() - t0) / 1000, output: plain });
    });
  });
}

/** Runs the scenarios two at a time and prints the table; resolves with the tier's counts. */
export async function runConformance(only = []) {
  const node = ensureNode24();
  const scenarios = listScenarios(node).filter((s) => only.length === 0 || only.includes(s.name));
  console.log(`\n▶ conformance tests (${scenarios.length} client scenarios of @modelcontextprotocol/conformance ${suiteVersion()}, suite on Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()})`);
  const results = [];
  const queue = [...scenarios];
  const worker = async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      const r = await runScenario(node, s.name);
      results.push({ ...r, specs: s.specs });
      console.log(`  ${r.passed ? '✓' : isOptional(s.name) ? '○' : '✖'} ${s.name} (${r.checks} checks, ${r.seconds.toFixed(1)} s)`);
      if (!r.passed && !isOptional(s.name)) console.log(r.output.split('\n').filter((l) => /FAILURE|\[error\]|Client exited|timed out/.test(l)).map((l) => `      ${l}`).join('\n'));
    }
  };
  await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));
  results.sort((a, b) => scenarios.findIndex((s) => s.name === a.name) - scenarios.findIndex((s) => s.name === b.name));
  console.log('\n| Scenario | Spec | Checks | Result |\n|---|---|---|---|');
  for (const r of results) console.log(`| \`${r.name}\` | ${r.specs} | ${r.checks} | ${r.passed ? 'passed' : isOptional(r.name) ? 'failed (optional)' : 'FAILED'} |`);
  const required = results.filter((r) => !isOptional(r.name));
  return { passed: required.filter((r) => r.passed).length, failed: required.filter((r) => !r.passed).length };
}

function suiteVersion() {
  return spawnSync(process.execPath, ['-p', `require(${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'))}).version`], { encoding: 'utf8' }).stdout.trim();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { passed, failed } = await runConformance(process.argv.slice(2));
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}
