import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'src/core and src/emulator must not depend on VS Code.' }],
  }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'bench-results/**', 'test-results/**'] },
  // Plain JavaScript (scripts, UI tests, build config): the language's recommended rules, Node's globals.
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...js.configs.recommended,
    languageOptions: { ...js.configs.recommended.languageOptions, globals: { ...globals.node } },
    rules: {
      ...js.configs.recommended.rules,
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  // UI tests run functions in the page (page.evaluate): the browser's globals there.
  { files: ['test/ui/**/*.mjs', 'scripts/bench/activation.mjs'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  ...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts'] })),
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Size limits, counted as `wc -l` counts (blank lines and comments too: they are read too).
  // Code 400 lines, a test file 600 (its cases share set-up); a file over it holds two concerns.
  { files: ['src/**/*.ts', 'test/**/*.ts', 'test/**/*.mjs', 'scripts/**/*.mjs', 'scripts/**/*.ts'], rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] } },
  { files: ['test/**/*.test.ts', 'test/**/*.ui.mjs'], rules: { 'max-lines': ['error', { max: 600, skipBlankLines: false, skipComments: false }] } },
  // Function size and branching under src/: a function over 80 lines (blank lines and comments not
  // counted) or 15 branches holds two steps. Where splitting would hurt, an
  // `eslint-disable-next-line … -- reason` beside the function says why (no bare disables).
  {
    files: ['src/**/*.ts'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 15],
    },
  },
  // Exempt for now, to be split by their owners: src/extension/commands/ (every command file is being
  // reworked into declared commands, issue 31) and src/core/requests/ (data requests, edited in parallel).
  { files: ['src/extension/commands/**/*.ts', 'src/core/requests/**/*.ts'], rules: { 'max-lines-per-function': 'off', complexity: 'off' } },
  // Split after wip/call lands: the typed client.call rewrites this file in parallel (issue 23).
  { files: ['src/core/**/*.ts', 'src/emulator/**/*.ts'], rules: noVscode },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core must not depend on VS Code.' }],
        patterns: [{ group: ['**/emulator/**', '../emulator*'], message: 'src/core must not know the emulator.' }],
      }],
    },
  },
);
