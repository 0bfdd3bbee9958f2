// Jest global teardown: stops what setup.mjs started (and only that), and forgets the URLs it set, so a
// following run (watch mode) starts afresh.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export default async function globalTeardown() {
  const state = globalThis.__VELLUM_TEST_SERVERS__;
  if (!state) return;
  globalThis.__VELLUM_TEST_SERVERS__ = undefined;
  const errors = [];

  if (state.nats) {
    const { child, storeDir } = state.nats;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(storeDir, { recursive: true, force: true });
    rmSync(path.join(repo, '.cache', `test-nats-${process.pid}.pid`), { force: true });
    delete process.env.TEST_NATS_URL;
  }

  if (state.startedPostgres) {
    try {
      await state.startedPostgres.stop();
    } catch (err) {
      errors.push(err);
    }
    delete process.env.TEST_DATABASE_URL;
  }
  if (state.tempDataDir) rmSync(state.tempDataDir, { recursive: true, force: true });
  if (errors.length) throw errors[0];
}
