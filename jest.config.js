// One Jest run over every workspace package. The global setup provides one PostgreSQL server for the whole
// run (the one named by TEST_DATABASE_URL, or an embedded one) and a NATS server when one is available.
const fs = require('node:fs');
const path = require('node:path');

const roots = ['libs', 'services'].flatMap((d) =>
  fs.existsSync(path.join(__dirname, d)) ? fs.readdirSync(path.join(__dirname, d)).map((n) => `${d}/${n}`) : [],
);
const projects = [...roots, 'gateway', 'deploy/local', 'apps/admin']
  .filter((p) => fs.existsSync(path.join(__dirname, p, 'jest.config.js')))
  .map((p) => `<rootDir>/${p}`);

module.exports = {
  projects,
  globalSetup: '<rootDir>/libs/testing/global/setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/global/teardown.mjs',
  maxWorkers: 2,
  // A global option: Jest ignores it inside project configs.
  testTimeout: 30000,
};
