// The shared preset, with dynamic import() compiled to require(): Prisma's generated client loads its query
// compiler with import(), which Jest's module registry cannot run without --experimental-vm-modules.
const preset = require('../../jest.preset')(__dirname);
const [pattern, [swc, options]] = Object.entries(preset.transform)[0];
module.exports = {
  ...preset,
  transform: { [pattern]: [swc, { ...options, module: { ...options.module, ignoreDynamic: false } }] },
};
