// Layer rule: src/core, src/mcp and src/providers are pure TypeScript; only src/extension
// may import `vscode`. src/core must not reach into src/mcp or src/providers either.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_GLOBALS = ['process', 'console', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
  'setImmediate', 'performance', 'AbortController', 'AbortSignal', 'Buffer', 'TextEncoder', 'TextDecoder', 'fetch', 'structuredClone', 'queueMicrotask'];

const vscodeImport = {
  name: 'vscode',
  message: 'Only src/extension may import vscode; keep this layer pure and unit-testable.',
};

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
  {
    files: ['src/core/**', 'src/mcp/**', 'src/providers/**', 'src/protocol.ts', 'webview/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeImport] }],
    },
  },
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [vscodeImport],
        patterns: [
          { group: ['**/mcp/**', '**/providers/**', '**/extension/**'], message: 'src/core defines interfaces; src/mcp and src/providers implement them.' },
          { group: ['**/protocol', '**/protocol.js'], message: 'src/core never imports the webview protocol: what they share lives in src/core, and the protocol imports it.' },
        ],
      }],
    },
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
