const base = require('../../jest.preset')(__dirname);

// Prisma's generated client loads its query compiler with `await import(...)`; Jest cannot run a native dynamic
// import without --experimental-vm-modules, so this package lets SWC turn dynamic imports into require().
const [pattern, [swc, options]] = Object.entries(base.transform)[0];
module.exports = {
  ...base,
  transform: { [pattern]: [swc, { ...options, module: { ...options.module, ignoreDynamic: false } }] },
};
