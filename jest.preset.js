// Shared Jest settings for every workspace package: TypeScript through SWC (no type-checking here; the
// `typecheck` task does that), CommonJS output, and the `.js` suffix of Prisma's generated imports mapped away.
// ESM-only dependencies (jose — @vellum/tokens verifies every token with it — and openid-client with its own) are
// compiled to CommonJS by the same transform: Jest's module registry cannot load ES modules without
// --experimental-vm-modules (at run time Node loads them natively with import()).
const path = require('node:path');

const esmOnly = ['jose', 'openid-client', 'oauth4webapi'];

/** @param {string} dir the package folder */
module.exports = function preset(dir) {
  return {
    displayName: path.relative(__dirname, dir),
    rootDir: dir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/{src,test}/**/*.test.ts'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022', keepClassNames: true },
          // dynamic import() compiled to require(): Prisma's generated client loads its query compiler with import(),
          // which Jest's module registry cannot run without --experimental-vm-modules.
          module: { type: 'commonjs', ignoreDynamic: false },
        },
      ],
    },
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
    testTimeout: 30000,
  };
};
