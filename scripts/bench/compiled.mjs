// The bench measures the compiled sources (`npm run bench` runs tsc first), from out/.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export function loadCompiled(repoRoot, path) {
  return import(pathToFileURL(resolve(repoRoot, 'out', path)).href);
}
