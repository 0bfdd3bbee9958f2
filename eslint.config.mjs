import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The shape of a service (CONTRIBUTING.md, "The shape of a service"): which folder of services/<name>/src may import
 * which. http/, graphql/ and events/ are the ways in; domain/ decides; data/ (and the mailer's transports/) execute.
 * The composition root (app.ts, start.ts, main.ts, index.ts, cli/, …) wires them and may import anything; config.ts
 * may be imported from anywhere. `typesOnly`: the folder may import only types from there (`import type`).
 */
const ROOT = ['app', 'start', 'main', 'index', 'cli', 'retention-commands'];
const LAYERS = {
  http: { may: ['domain'] },
  graphql: { may: ['domain'] },
  events: { may: ['domain', 'data', 'transports'] },
  domain: { may: ['data', 'transports'] },
  data: { may: [], typesOnly: ['domain'] },
  transports: { may: [], typesOnly: ['domain'] },
};
const sibling = (names) => `^\\.\\./(${names.join('|')})(/|$)`;
const serviceShape = Object.entries(LAYERS).map(([layer, { may, typesOnly = [] }]) => {
  const forbidden = Object.keys(LAYERS).filter((l) => l !== layer && !may.includes(l) && !typesOnly.includes(l));
  const message = `${layer}/ may import ${[...may, ...typesOnly.map((l) => `types of ${l}/`)].join(', ') || 'no other folder'} and config (CONTRIBUTING.md: "The shape of a service").`;
  return {
    files: [`services/*/src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: sibling([...forbidden, ...ROOT]), message },
            ...(typesOnly.length ? [{ regex: sibling(typesOnly), allowTypeImports: true, message }] : []),
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/src/generated/**', 'data/**', '.cache/**', '**/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      // Configuration is read only in a service's config.ts (and the libs that parse it).
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration in config.ts only.' }],
    },
  },
  {
    // JSON answers go out through sendJson/sendJsonText, which compress them for clients that accept it
    files: ['services/*/src/http/**/*.ts', 'gateway/src/**/*.ts', 'libs/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='res'][callee.property.name='json']",
          message: 'Answer with sendJson / sendJsonText from @vellum/http.',
        },
      ],
    },
  },
  {
    files: ['**/config.ts', '**/test/**', '**/*.test.ts', 'libs/config/**', 'libs/testing/**', '**/*.mjs', '**/*.js', 'scripts/**', 'bench/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  ...serviceShape,
);
