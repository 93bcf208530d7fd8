// ESLint (flat config): the project's rules, run by `npm test` (npm run lint).
// JavaScript's and typescript-eslint's recommended rules, React's rules of hooks, and a few
// choices of this project: `any` is allowed only where JSON from rule files or the network
// is read before its schema check (warned, not refused), unused names may start with _.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'web/dist/**',
      'coverage/**',
      'reports/**',
      'reports.*/**',
      'web/src/generated/**',
      'engine/generated/**',
      '.stryker-tmp/**',
      '.runtime/**',
      'data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-control-regex': 'off',
    },
  },
  // React is in web/src only: the rules of hooks' code-path analysis of every function elsewhere
  // (engine, CLI, server, scripts: 60 % of the files) found nothing to check (issue 23).
  {
    files: ['web/src/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error' },
  },
);
