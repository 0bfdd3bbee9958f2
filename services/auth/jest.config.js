// The shared preset, with dynamic import() compiled to require(): Prisma's generated client loads its query
// compiler with import(), which Jest's module registry cannot run without --experimental-vm-modules.
// openid-client 6 and its dependencies (oauth4webapi, jose) are ESM-only: SWC compiles them to CommonJS here
// (at run time Node 20.20 loads them natively with import()/require(esm)).
const preset = require('../../jest.preset')(__dirname);
const [pattern, [swc, options]] = Object.entries(preset.transform)[0];
const esmOnly = ['openid-client', 'oauth4webapi', 'jose'];
module.exports = {
  ...preset,
  transform: {
    [pattern]: [swc, { ...options, module: { ...options.module, ignoreDynamic: false } }],
    '^.+\\.m?js$': [swc, { ...options, jsc: { ...options.jsc, parser: { syntax: 'ecmascript' } }, module: { ...options.module, ignoreDynamic: false } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
};
