// ESLint flat config: typescript-eslint's recommended rules, and the architecture's layers as import restrictions
// (README "Architecture"): the core is pure, views never reach into each other, data flows text → analysis → views.
const js = require('@eslint/js');
const globals = require('globals');
const tseslint = require('typescript-eslint');

/** Imports a layer may not make, as regular expressions over the import specifier. */
const deny = (...groups) => ({
  'no-restricted-imports': ['error', { patterns: groups.map(([regex, message]) => ({ regex, message })) }],
});

const VSCODE = ['^vscode$', 'the vscode API is for src/vscode only'];
const HOSTS = [
  '(^|/)(vscode|cli|server|host)(/|$)|(^|/)cli\\.js$',
  'the core is pure: it never imports a host (vscode, cli, server, host)',
];
const WEBVIEW = ['(^|/)webview(/|$)', 'the webview is a separate bundle; talk to it through src/protocol.ts'];
const PROTOCOL = ['(^|/)protocol(\\.js)?$', 'src/protocol.ts imports core types, never the reverse'];
const PANEL = ['(^|/)panel(/|$)', 'view models (core/panel) build on the model; the model never imports them'];
const NODE = ['^node:|^(fs|path|child_process|os|worker_threads)$', 'the core does no I/O: the host passes what it read'];

/** The webview (at `depth` folders below the repository root) imports only src/protocol.ts and its own files. */
const webviewOnly = (depth) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: `^${'\\.\\./'.repeat(depth)}(?!src/protocol(\\.js)?$)`,
          message: 'the webview imports only src/protocol.ts (and its own files)',
        },
        { regex: '^vscode$|^node:', message: 'the webview runs in a browser' },
      ],
    },
  ],
});

module.exports = tseslint.config(
  { ignores: ['dist/', 'dist-test/', 'dist-e2e/', 'gen/', '.cache/', 'node_modules/', 'test-results/', 'bench/tmp/', 'scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  { files: ['src/core/**/*.ts'], rules: deny(VSCODE, HOSTS, WEBVIEW, PROTOCOL, NODE) },
  { files: ['src/core/{plan,memory,rules,formats,kvsim,models}/**/*.ts'], rules: deny(VSCODE, HOSTS, WEBVIEW, PROTOCOL, NODE, PANEL) },
  { files: ['src/protocol.ts'], rules: deny(VSCODE, HOSTS, WEBVIEW) },
  { files: ['src/cli/**/*.ts', 'src/cli.ts', 'src/server/**/*.ts'], rules: deny(VSCODE, WEBVIEW) },
  { files: ['src/vscode/**/*.ts'], rules: deny(WEBVIEW) },
  { files: ['webview/**/*.ts'], rules: webviewOnly(1) },
  { files: ['webview/sections/**/*.ts'], rules: webviewOnly(2) },
  { files: ['eslint.config.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // Browser code: the webview, and the functions Playwright runs inside the workbench page.
  { files: ['webview/**/*.ts', 'test/e2e/**/*.mjs', 'test/webview/**/*.ts'], languageOptions: { globals: { ...globals.browser } } },
);
