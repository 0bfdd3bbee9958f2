// `npm test`: generate Prisma clients (offline), type-check every package, then run every Jest project once
// and print one plain summary line. Extra arguments go to Jest (`npm test -- services/auth`).
// `npm test -- --tier unit|integration|e2e` runs one tier (or several: `--tier unit,integration`): unit = `src/**/*.test.ts` (no servers started, no
// type-check: under a minute), integration = `test/` without the end-to-end ones, e2e = `*.e2e.test.ts` and the
// admin app's `*.browser.test.ts` (real processes, a browser, and the response-timing measurements: minutes each).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const { chromiumPath } = createRequire(import.meta.url)('../apps/admin/scripts/chromium-path.js');

const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  CHECKPOINT_DISABLE: '1',
  PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  APOLLO_TELEMETRY_DISABLED: 'true',
};
const run = (cmd, args) => {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  return r.status ?? 1;
};
const fail = (what, code) => {
  console.error(`\n✗ ${what} failed (exit ${code})`);
  process.exit(code || 1);
};

const TIERS = {
  unit: '/src/.+\\.test\\.tsx?$',
  integration: '/test/(?!.*\\.(e2e|browser)\\.test\\.).+\\.test\\.tsx?$',
  e2e: '\\.(e2e|browser)\\.test\\.tsx?$',
};
const args = process.argv.slice(2);
const at = args.indexOf('--tier');
const tier = at === -1 ? undefined : (args.splice(at, 2)[1] ?? '');
const tiers = tier === undefined ? [] : tier.split(',');
for (const t of tiers) if (!TIERS[t]) fail(`--tier ${tier}: not one or more (comma-separated) of ${Object.keys(TIERS).join(', ')}`, 2);
if (tier) {
  args.unshift('--testPathPatterns', tiers.map((t) => `(${TIERS[t]})`).join('|'));
  env.VELLUM_TEST_TIER = tier;
}
let code = run('npx', ['turbo', 'run', 'generate', '--output-logs=errors-only']);
if (code !== 0) fail('prisma generate', code);
if (!process.env.SKIP_TYPECHECK && tier !== 'unit') {
  code = run('npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only']);
  if (code !== 0) fail('typecheck', code);
}
// The admin app's browser tests (apps/admin/test/*.browser.test.ts) need a Chromium; CI sets REQUIRE_BROWSER_TESTS=1.
const chromium = chromiumPath();
const browserLine = chromium
  ? `browser tests: Chromium at ${chromium}`
  : `!!! BROWSER TESTS SKIPPED: no Chromium found (apt-get install -y chromium, or CHROMIUM_PATH=…)${process.env.REQUIRE_BROWSER_TESTS === '1' ? ' — REQUIRE_BROWSER_TESTS=1: they fail' : ''}`;
console.log(`\n${browserLine}`);
mkdirSync('.cache', { recursive: true });
const out = '.cache/jest-results.json';
rmSync(out, { force: true });
code = run('npx', ['jest', '--ci', '--json', `--outputFile=${out}`, ...args]);
if (existsSync(out)) {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  console.log(`\njest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  if (!chromium) console.log(browserLine);
  if (r.numTotalTests === 0) fail('jest ran no test', 1);
}
if (code !== 0) fail('jest', code);
