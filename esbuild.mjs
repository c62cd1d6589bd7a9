// Two bundles: the extension host (node, cjs, `vscode` external) and the chat webview (browser).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };

const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'],
    // Prefer ESM entry points: jsonc-parser's UMD main requires './impl/*' at run time, which a bundle cannot resolve.
    mainFields: ['module', 'main'] },
  { ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

// The webview may load only from dist/ and media/ (localResourceRoots), so its icon font is
// copied into dist/ rather than served from node_modules.
function copyCodicons() {
  mkdirSync('dist/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);
}
copyCodicons();

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
