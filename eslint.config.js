// Lint checks two things: that each folder of src/ keeps to its layer (eslint/layers.js), and a
// few correctness rules that catch real bugs (a promise nobody awaits, a broken loop). Style is
// left alone on purpose.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { layerRule } from './eslint/layer-rule.js';
import { LAYERS, LAYER_PATHS } from './eslint/layers.js';

export default defineConfig(
  {
    ignores: ['dist/**', 'coverage/**', 'node_modules/**', 'bench/results/**', 'tests/fixtures/**'],
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
  },
  {
    files: ['**/*.{ts,js,mjs}'],
    // The code keeps a few directives for rules this config does not turn on (no-control-regex).
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'no-async-promise-executor': 'error',
      'no-self-assign': 'error',
      'no-self-compare': 'error',
      'no-unsafe-finally': 'error',
      'no-dupe-else-if': 'error',
      'no-unreachable-loop': 'error',
      'no-constant-binary-expression': 'error',
      'no-cond-assign': 'error',
      'no-sparse-arrays': 'error',
    },
  },
  {
    // Rules that need types run on the product code only, against the build program (src/):
    // typing the tests too would double the time of a lint run.
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.build.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A promise nobody awaits loses its error and its ordering: a rollback that has not
      // finished, a state write that fails silently. Notifier.notify is the one call meant to
      // be fired and forgotten: it never rejects.
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'file', name: 'notify', path: 'src/ports.ts' }] }],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { ralph: { rules: { layers: layerRule } } },
    rules: {
      'ralph/layers': ['error', { layers: LAYERS, where: LAYER_PATHS }],
      // Named exports only: one name for a thing across the code base.
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use a named export.' }],
    },
  },
);
