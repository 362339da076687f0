// Lint: typescript-eslint's recommended rules, plus the one architectural rule that a reviewer
// would otherwise have to remember: nothing under electron/core or electron/sandbox imports electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'release/', 'test-results/', 'artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['electron/core/**', 'electron/sandbox/**', 'electron/cli/**', 'electron/browser-host/**', 'renderer/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only electron/main and electron/preload may import electron.' }] }],
    },
  },
);
