// `npm run bench`: runs every benchmark section that exists beside this file and prints its
// tables (or, with --json, one JSON document). Sections export
//   async function run(opts) -> Table | Table[]   (Table: see table.mjs)
// Options: --json, --catalogs DIR --queries FILE (score another set in the same format),
// --bench DIR (default: ../shared/bench from the repo root, CI's layout), --quick (fewer
// timing runs), --no-speed, --no-ablations, --no-editor (skip the real-editor start-up section),
// --only NAME[,NAME] (sections by file name).
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { printTables } from './table.mjs';

const SECTIONS = ['search', 'mcp', 'startup', 'editor', 'editorSearch', 'tokens', 'cache', 'cacheTtl', 'longConversation', 'results', 'history', 'chatScale'];
const repoRoot = resolve(import.meta.dirname, '..', '..');

function parseArgs(argv) {
  const opts = { json: false, quick: false, only: undefined, catalogs: undefined, queries: undefined, bench: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--json') opts.json = true;
    else if (a === '--quick') opts.quick = true;
    else if (a === '--no-speed') opts.noSpeed = true;
    else if (a === '--no-ablations') opts.noAblations = true;
    else if (a === '--no-editor') opts.noEditor = true;
    else if (a === '--only') opts.only = value().split(',');
    else if (a === '--catalogs') opts.catalogs = resolve(value());
    else if (a === '--queries') opts.queries = resolve(value());
    else if (a === '--bench') opts.bench = resolve(value());
    else throw new Error(`unknown option ${a}`);
  }
  if ((opts.catalogs === undefined) !== (opts.queries === undefined)) throw new Error('--catalogs and --queries go together');
  opts.bench ??= resolve(repoRoot, '..', 'shared', 'bench');
  return { ...opts, repoRoot };
}

function environment() {
  // Load average matters: timings on a shared machine are only comparable at similar load.
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  return { date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, load };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const env = environment();
  if (!opts.json) console.log(`Quiver bench — ${env.date} — node ${env.node} — ${env.cpu} (${env.cores} cores, load ${env.load})\nData: ${opts.catalogs ?? opts.bench}`);
  const sections = [];
  for (const name of SECTIONS) {
    if (opts.only && !opts.only.includes(name)) continue;
    const file = resolve(import.meta.dirname, `${name}.mjs`);
    if (!existsSync(file)) continue;
    const mod = await import(pathToFileURL(file).href);
    const result = await mod.run(opts);
    const tables = Array.isArray(result) ? result : [result];
    sections.push({ name, tables });
    if (!opts.json) printTables(tables);
  }
  if (opts.json) console.log(JSON.stringify({ environment: env, sections }, null, 2));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
