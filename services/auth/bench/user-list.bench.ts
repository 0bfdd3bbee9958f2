/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// The admin app's user list over 100,000 users: `GET /users` with search + sort + limit=25 + page, one request at
// a time (latency, not throughput), straight to the auth service (no gateway). Goal (issue 23): p50 < 50 ms.
//   node --import tsx services/auth/bench/user-list.bench.ts
// Env: BENCH_DATABASE_URL (a server admin URL; default TEST_DATABASE_URL or postgres://root@127.0.0.1:5432/postgres),
//      BENCH_USERS (default 100000), BENCH_REQUESTS per scenario (default 40), BENCH_EXPLAIN=1 prints each
//      scenario's plan (EXPLAIN ANALYZE of the list statement), BENCH_KEEP=1 keeps the database.
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { parseQuery, planQuery } from '@vellum/query';
import { databaseUrl, dropDatabase, ensureDatabases, migrate } from '@vellum/db';
import { listen } from '@vellum/http';
import { createLogger } from '@vellum/logger';
import { createApp } from '../src/app';
import { loadAuthConfig } from '../src/config';
import { createPrisma } from '../src/data/prisma';
import { authQuerySchema } from '../src/domain/auth-query-schema';
import { bootstrap } from '../src/domain/bootstrap';
import { MIGRATIONS_DIR } from '../src/start';

const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const FIRST = [
  'Ann',
  'Anna',
  'Hannah',
  'Joanne',
  'Bob',
  'Robert',
  'Carla',
  'David',
  'Eve',
  'Frank',
  'Grace',
  'Hugo',
  'Iris',
  'Jack',
  'Karen',
  'Liam',
  'Maria',
  'Noah',
  'Olga',
  'Paul',
  'Quinn',
  'Rosa',
  'Sam',
  'Tina',
  'Uma',
  'Victor',
  'Wendy',
  'Xavier',
  'Yara',
  'Zoe',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
];
const TITLES = ['Editor', 'Writer', 'Reviewer', 'Translator', 'Photographer', 'Designer', 'Developer', 'Manager', null, null];

/** The admin app's list requests: a search term, a sort, a page of 25. */
const SCENARIOS: { name: string; query: Record<string, string> }[] = [
  { name: 'search=smith sort=last_name page=1', query: { search: 'smith', sort: 'last_name', page: '1' } },
  { name: 'search=smith sort=-email page=3', query: { search: 'smith', sort: '-email', page: '3' } },
  { name: 'search=ann sort=first_name page=2', query: { search: 'ann', sort: 'first_name', page: '2' } },
  { name: 'search=example sort=email page=10', query: { search: 'example', sort: 'email', page: '10' } },
  { name: 'search=robert.garcia1 sort=email page=1 (few rows)', query: { search: 'robert.garcia1', sort: 'email', page: '1' } },
  { name: 'search=nobody-at-all sort=email page=1 (no row)', query: { search: 'nobody-at-all', sort: 'email', page: '1' } },
  { name: 'search=editor sort=-last_access page=4', query: { search: 'editor', sort: '-last_access', page: '4' } },
  { name: 'no search sort=email page=40', query: { sort: 'email', page: '40' } },
];
const WITH_COUNT = { meta: 'filter_count' };

async function seed(url: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const t0 = Date.now();
    await c.query(
      `INSERT INTO roles (id, name, admin_access, app_access)
       SELECT gen_random_uuid(), r, false, true FROM unnest(ARRAY['Editor', 'Writer', 'Reviewer', 'Guest']) AS r`,
    );
    // independent pseudo-random picks (a fixed seed): no accidental correlation between names, e-mails and order
    await c.query('SELECT setseed(0.23)');
    await c.query(
      `INSERT INTO users (id, first_name, last_name, email, status, role_id, title, last_access, created_at)
       SELECT gen_random_uuid(), f, l, lower(f || '.' || l || i || '@' || (ARRAY['example.com', 'mail.org', 'corp.io'])[1 + i % 3]),
              (ARRAY['active', 'active', 'active', 'active', 'invited', 'suspended', 'archived'])[1 + i % 7],
              (SELECT id FROM roles ORDER BY name OFFSET i % 5 LIMIT 1),
              t, CASE WHEN i % 4 = 0 THEN NULL ELSE now() - make_interval(mins => i) END, now() - make_interval(secs => i)
       FROM generate_series(1, $1::int) AS i,
            LATERAL (SELECT ($2::text[])[1 + floor(random() * array_length($2::text[], 1))::int + 0 * i] AS f,
                            ($3::text[])[1 + floor(random() * array_length($3::text[], 1))::int + 0 * i] AS l,
                            ($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int + 0 * i] AS t) AS v`,
      [USERS, FIRST, LAST, TITLES],
    );
    // the steady state autovacuum keeps: statistics, and the GIN indexes' pending lists merged (a bulk insert leaves
    // up to gin_pending_list_limit of unmerged entries that every search would scan)
    await c.query('VACUUM ANALYZE users');
    console.log(`seeded ${USERS} users in ${Date.now() - t0} ms`);
  } finally {
    await c.end();
  }
}

async function explain(url: string, query: Record<string, string>) {
  const plan = planQuery(authQuerySchema, 'users', parseQuery({ limit: '25', ...query }));
  const sql = plan.list();
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql.text}`, sql.values);
    console.log(r.rows.map((x: Record<string, string>) => `    ${x['QUERY PLAN']}`).join('\n'));
  } finally {
    await c.end();
  }
}

async function main() {
  const name = `vellum_bench_users_${process.pid}`;
  await ensureDatabases(admin, [name]);
  const url = databaseUrl(admin, name);
  const config = loadAuthConfig({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    RATE_LIMITER_ENABLED: 'false',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'bench-password-1',
  });
  const prisma = createPrisma(url, 4);
  let close = async () => undefined as void;
  try {
    await migrate({ connectionString: url, migrationsDir: MIGRATIONS_DIR });
    const built = createApp({ db: prisma, config, logger: createLogger({ name: 'bench', level: 'silent' }) });
    await bootstrap(built.ctx);
    await seed(url);
    const server = await listen(built.app, 0, '127.0.0.1');
    close = async () => {
      await server.close(100);
      await built.close();
    };
    const [adminRow] = await prisma.user.findMany({ where: { email: 'admin@example.com' }, include: { role: true } });
    const token = built.ctx.tokens.signAccess({ id: adminRow!.id, role: adminRow!.role_id, app_access: true, admin_access: true }, 3_600_000, new Date());
    const get = async (query: Record<string, string>) => {
      const qs = new URLSearchParams({ limit: '25', fields: 'id,first_name,last_name,email,status,role.name,last_access', ...query });
      const t0 = performance.now();
      const res = await fetch(`${server.url}/users?${qs}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { data: unknown[] };
      const t = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
      return { t, rows: body.data.length };
    };
    console.log(`load average before: ${load()}\n`);
    const all: number[] = [];
    const allCounted: number[] = [];
    console.log('| scenario (limit=25) | rows | p50 ms | p95 ms | with meta=filter_count p50 ms |');
    console.log('|---|---|---|---|---|');
    for (const s of SCENARIOS) {
      const times: number[] = [];
      const counted: number[] = [];
      let rows = 0;
      for (let i = 0; i < 5; i++) await get(s.query); // warm-up
      for (let i = 0; i < REQUESTS; i++) {
        const r = await get(s.query);
        rows = r.rows;
        times.push(r.t);
        counted.push((await get({ ...s.query, ...WITH_COUNT })).t);
      }
      all.push(...times);
      allCounted.push(...counted);
      console.log(`| ${s.name} | ${rows} | ${pct(times, 0.5).toFixed(1)} | ${pct(times, 0.95).toFixed(1)} | ${pct(counted, 0.5).toFixed(1)} |`);
      if (process.env.BENCH_EXPLAIN) await explain(url, s.query);
    }
    console.log(
      `\nall scenarios: p50 ${pct(all, 0.5).toFixed(1)} ms, p95 ${pct(all, 0.95).toFixed(1)} ms (goal: p50 < 50 ms); ` +
        `with meta=filter_count: p50 ${pct(allCounted, 0.5).toFixed(1)} ms, p95 ${pct(allCounted, 0.95).toFixed(1)} ms`,
    );
    console.log(`load average after: ${load()}`);
  } finally {
    await close();
    await prisma.$disconnect();
    if (process.env.BENCH_KEEP) console.log(`kept database ${name}`);
    else await dropDatabase(admin, name).catch(() => undefined);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
