/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// A login's write (loginRepository.recordSuccess: the UPDATE of its user, the session, the audit row) in a users
// table of many users, without and with the users_fillfactor migration (two databases, the same 20,000 users,
// logins of random users in alternating chunks): the PostgreSQL backend's CPU per login and the share of HOT
// updates of users (no index written; users has nine indexes, five of them trigram GINs).
//   node --import tsx services/auth/bench/users-fillfactor.bench.ts
// Env: BENCH_DATABASE_URL (default TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/postgres),
//      BENCH_USERS (default 20000), BENCH_CHUNK (logins per chunk, default 500), BENCH_ROUNDS (default 6).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrl, dropDatabase, ensureDatabases, migrate } from '@vellum/db';
import { cpuUs } from '../../../bench/proc-cpu';
import { loginRepository } from '../src/data/login.repository';
import { audit } from '../src/domain/auth-messages';
import { MIGRATIONS_DIR } from '../src/start';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const users = Number(process.env.BENCH_USERS ?? 20000);
const chunk = Number(process.env.BENCH_CHUNK ?? 500);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const FILLFACTOR = '20261205000000_users_fillfactor';

async function database(label: string, migrationsDir: string) {
  const name = `vellum_auth_ff_${label}_${Date.now().toString(36)}`;
  await ensureDatabases(admin, [name]);
  await migrate({ connectionString: databaseUrl(admin, name), migrationsDir });
  const c = new Client({ connectionString: databaseUrl(admin, name) });
  await c.connect();
  await c.query(
    `INSERT INTO users (id, first_name, last_name, email, password, title, description)
     SELECT gen_random_uuid(), 'First' || i, 'Last' || i, 'user' || i || '@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g',
            'Title of user ' || i, 'A description of user number ' || i
       FROM generate_series(1, $1::int) i`,
    [users],
  );
  await c.query('VACUUM ANALYZE users');
  const ids = (await c.query<{ id: string }>('SELECT id FROM users')).rows.map((r) => r.id);
  const pid = (await c.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]!.p;
  const stats = async () => {
    await c.query('SELECT pg_stat_force_next_flush()');
    await new Promise((r) => setTimeout(r, 50));
    const s = (await c.query<{ upd: string; hot: string }>(`SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'users'`))
      .rows[0]!;
    return { upd: Number(s.upd), hot: Number(s.hot) };
  };
  let cpu = 0;
  let n = 0;
  let hot = 0;
  let upd = 0;
  return {
    label,
    async logins(count: number) {
      const s0 = await stats();
      const c0 = cpuUs(pid);
      for (let i = 0; i < count; i++) {
        const userId = ids[Math.floor(Math.random() * ids.length)]!;
        const now = new Date();
        const actor = { user: userId, ip: '127.0.0.1', userAgent: 'bench', origin: null };
        await loginRepository.recordSuccess(c, {
          userId,
          now,
          tokenHash: `${userId}:${i}:${Math.random()}`,
          expiresAt: new Date(now.getTime() + 86400000),
          ip: '127.0.0.1',
          userAgent: 'bench',
          origin: null,
          event: audit('login', userId, actor, now),
        });
      }
      const used = cpuUs(pid) - c0;
      const s1 = await stats();
      cpu += used;
      n += count;
      hot += s1.hot - s0.hot;
      upd += s1.upd - s0.upd;
      return { us: used / count, hot: (s1.hot - s0.hot) / Math.max(1, s1.upd - s0.upd) };
    },
    total: () => ({ us: cpu / n, hot: hot / Math.max(1, upd) }),
    close: async () => {
      await c.end();
      await dropDatabase(admin, name).catch(() => undefined);
    },
  };
}

async function main() {
  console.log(
    `load average before: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}; ${users} users, ${rounds} rounds of ${chunk} logins each`,
  );
  const without = mkdtempSync(path.join(tmpdir(), 'auth-migrations-'));
  cpSync(MIGRATIONS_DIR, without, { recursive: true });
  rmSync(path.join(without, FILLFACTOR), { recursive: true });
  const dbs = [await database('ff100', without), await database('ff90', MIGRATIONS_DIR)];
  for (let round = 1; round <= rounds; round++) {
    const line: string[] = [];
    for (const db of round % 2 ? dbs : [...dbs].reverse()) {
      const r = await db.logins(chunk);
      line.push(`${db.label}: ${r.us.toFixed(0)} µs, HOT ${(r.hot * 100).toFixed(0)}%`);
    }
    console.log(`round ${round}: PostgreSQL CPU per login write — ${line.join('; ')}`);
  }
  for (const db of dbs)
    console.log(`${db.label}: ${db.total().us.toFixed(0)} µs PostgreSQL CPU per login write, ${(db.total().hot * 100).toFixed(0)}% of the users updates HOT`);
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  for (const db of dbs) await db.close();
  rmSync(without, { recursive: true });
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
