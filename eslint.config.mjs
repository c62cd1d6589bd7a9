// The layer matrix: which folder may import which. Each layer gets one `no-restricted-imports`
// entry (ESLint's flat config lets the last matching entry win, so they must not overlap), and
// each message names the rule it enforces, so a wrong import says what to do instead.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = ['process', 'console', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
  'setImmediate', 'performance', 'AbortController', 'AbortSignal', 'Buffer', 'TextEncoder', 'TextDecoder', 'fetch', 'structuredClone', 'queueMicrotask'];

const vscodeImport = {
  name: 'vscode',
  message: 'Only src/extension may import vscode; keep this layer pure and unit-testable.',
};


const rule = (name, text) => `Layer rule "${name}" (eslint.config.mjs): ${text}`;
const forbidden = (group, name, text) => ({ group, message: rule(name, text) });
const pastCoreFace = forbidden(['**/core/*/*', '!**/core/*/index'], 'core faces',
  'outside src/core, import a core folder through its index.ts (e.g. ../core/search, not ../core/search/toolIndex); export what you need from that index.');
const pastMcpFace = forbidden(['**/mcp/*', '!**/mcp/index'], 'mcp face',
  'outside src/mcp, import it through src/mcp/index.ts (e.g. ../mcp, not ../mcp/manager); export what you need from that index.');
const toMcp = (from) => forbidden(['**/mcp', '**/mcp/**'], `${from} ↛ mcp`, `${from} must not import src/mcp; depend on a port in src/core (e.g. ToolSource) that src/mcp implements.`);
const toProviders = (from) => forbidden(['**/providers/**'], `${from} ↛ providers`, `${from} must not import src/providers; depend on the ModelClient port in src/core/models.`);
const toExtension = (from) => forbidden(['**/extension/**'], `${from} ↛ extension`, `only src/extension is VS Code glue; ${from} must not import it (pass what it needs in).`);
const toProtocol = (from) => forbidden(['**/protocol', '**/protocol/**'], `${from} ↛ protocol`, `${from} never imports the webview protocol: what they share lives in src/core, and the protocol imports it.`);
const toWebview = (from) => forbidden(['**/webview/**'], `${from} ↛ webview`, `${from} must not import the webview's code; the two ends share only src/protocol.`);

/** Each layer and the imports it may not make (besides `vscode`, which only src/extension may import). */
const LAYERS = [
  { files: ['src/core/**'], forbid: [toMcp('core'), toProviders('core'), toExtension('core'), toProtocol('core'), toWebview('core')] },
  { files: ['src/mcp/**'], forbid: [toProviders('mcp'), toExtension('mcp'), toProtocol('mcp'), toWebview('mcp'), pastCoreFace] },
  { files: ['src/providers/**'], forbid: [toMcp('providers'), toExtension('providers'), toProtocol('providers'), toWebview('providers'), pastCoreFace] },
  {
    files: ['src/protocol/**'],
    forbid: [toMcp('protocol'), toProviders('protocol'), toExtension('protocol'), toWebview('protocol'),
      forbidden(['**/core/**', '!**/core/chatView'], 'protocol → core/chatView', 'the protocol reaches the webview, so it imports only src/core/chatView (browser-safe); re-export what it needs there.')],
  },
  {
    files: ['webview/**'],
    forbid: [forbidden(['**/src/**', '!**/src/protocol'], 'webview → protocol', 'the webview imports only src/protocol (the typed host↔webview contract); re-export what it needs there.')],
  },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', '.cache/**', 'demo/**', '.test-artifacts/**', 'eslint.config.mjs', 'esbuild.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  ...LAYERS.map(({ files, forbid }) => ({ files, rules: { 'no-restricted-imports': ['error', { paths: [vscodeImport], patterns: forbid }] } })),
  {
    // The glue may import every layer, but core only through its folders' faces and mcp through its own.
    files: ['src/extension/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [pastCoreFace, pastMcpFace] }] },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: Object.fromEntries(NODE_GLOBALS.map((g) => [g, 'readonly'])),
    },
  },
  {
    // UI tests pass functions to page.evaluate(), which run in the workbench or a webview.
    files: ['test/e2e/ui/**'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly' } },
  },
);
