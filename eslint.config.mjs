import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/src/generated/**', 'data/**', '.cache/**', '**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      // Configuration is read only in a service's config.ts (and the libs that parse it).
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration in config.ts only.' }],
    },
  },
  {
    files: ['**/config.ts', '**/test/**', '**/*.test.ts', 'libs/config/**', 'libs/testing/**', '**/*.mjs', '**/*.js', 'scripts/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
