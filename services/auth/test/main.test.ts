import { spawnSync } from 'node:child_process';
import path from 'node:path';

// The auth service as its own process refuses to start without a signing key (no secret defaults outside the
// embedded topology), naming the variable.
describe('auth main.ts', () => {
  it('fails fast without AUTH_PRIVATE_KEY / AUTH_KEYS_DIR', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(__dirname, '..'),
      env: { PATH: process.env.PATH, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', NATS_URL: 'nats://127.0.0.1:1' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/AUTH_PRIVATE_KEY: is required/);
  });
});
