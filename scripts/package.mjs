// `npm run package`: a clean production build (no source maps) packaged as quiver-<version>.vsix.
// The bundle holds every dependency, so the .vsix carries no node_modules (.vscodeignore is an allowlist).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const run = (args) => {
  const r = spawnSync('node', args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
rmSync(join(root, 'dist'), { recursive: true, force: true });
run(['esbuild.mjs', '--production']);
run([join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', ...process.argv.slice(2)]);
