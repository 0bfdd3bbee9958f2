// `npm test`: generate Prisma clients (offline), type-check every package, then run every Jest project once.
// Extra arguments go to Jest (`npm test -- libs/messaging`).
import { spawnSync } from 'node:child_process';

const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  CHECKPOINT_DISABLE: '1',
  PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false',
  APOLLO_TELEMETRY_DISABLED: 'true',
};
const run = (cmd, args) => {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
};
const args = process.argv.slice(2);
if (!process.env.SKIP_TYPECHECK) run('npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only']);
run('npx', ['jest', '--ci', ...args]);
