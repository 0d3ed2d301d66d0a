// ESLint, configured once for the whole repository (SDK, server, extension, tests, scripts).
// The TypeScript compiler (strict) already checks types; these rules catch what it does not:
// unused code, unsafe patterns, floating promises' cousins the syntax can see, and mistakes the
// type checker allows. Run with `npm run lint` (CI runs it).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      '.e2e/**',
      '**/*.generated.ts',
      'sdk/dist/**',
      'extension/media/*.js',
      'bench/results.json',
      '**/.vscode-test/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        URL: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        globalThis: 'readonly',
        document: 'readonly',
        window: 'readonly',
        acquireVsCodeApi: 'readonly',
        fetch: 'readonly',
        crypto: 'readonly',
        describe: 'readonly',
        it: 'readonly',
        before: 'readonly',
        after: 'readonly',
        beforeEach: 'readonly',
        afterEach: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-constant-condition': ['error', { checkLoops: false }],
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `let x = fallback; try { x = … } catch { x = fallback }` reads clearly; not a defect.
      'no-useless-assignment': 'off',
      'prefer-const': ['error', { destructuring: 'all' }],
    },
  },
  {
    // Generated typed clients carry a blanket disable (they are regenerated, not edited).
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    files: ['examples/scripts/*-client.ts'],
  },
  {
    // Tests poke at wire shapes on purpose.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
