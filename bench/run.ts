// `npm run bench`: the whole platform as `npm start` composes it, on a PostgreSQL server (BENCH_DATABASE_URL,
// default the machine's 127.0.0.1:5432; `BENCH_DATABASE_URL=embedded` for the embedded one), with N revisions
// seeded over 20 collections. Every read path of the contract is measured with autocannon (concurrency 16,
// loopback) THROUGH THE GATEWAY, STRAIGHT TO THE REVISIONS SERVICE (real tokens from the auth service) and against
// its FLOOR (bench/floor-server.mjs: bare node:http + pg running the very statements the service ran), in
// interleaved rounds, at 1,000,000 and 100,000 revisions. Prints ratios to the floor; writes bench/results.json.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createLogger } from '@vellum/logger';
import { loadLocalConfig, startPlatform, type Platform } from '@vellum/local';
import { seedRevisions } from '../services/revisions/bench/seed';
import { api } from './api';
import { startDistributed, startNats } from './distributed';
import { startFloor } from './floor';
import { measureReads, summarise, type Row, type Scenario, type Summary, type Via } from './measure-reads';
import { recordQueries, type Statement } from './record-queries';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SIZES = (process.env.BENCH_SIZES ?? '1000000,100000').split(',').map(Number);
const ONLY = process.env.BENCH_ONLY; // substring of a scenario name
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2); // seconds of unmeasured load before each scenario (JIT, caches)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3); // interleaved floor/gateway/direct rounds per scenario
// the distributed topology too (gateway and revisions service as their own processes, the bench's own nats-server)
const DISTRIBUTED = process.env.BENCH_DISTRIBUTED !== '0';

/** Until the revisions database's activity count holds still for a second (at most 20 s). */
async function quiet(databaseUrl: string): Promise<void> {
  const { Client } = await import('pg');
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    let last = -1;
    for (let i = 0; i < 20; i++) {
      const n = Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM activity')).rows[0]!.n);
      if (n === last) return;
      last = n;
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await c.end();
  }
}

async function benchSize(n: number, natsUrl: string | undefined): Promise<Row[]> {
  const log = (m: string) => console.log(`[${n.toLocaleString('en')}] ${m}`);
  const suffix = `bench_${n}`;
  const embedded = SERVER === 'embedded';
  const config = loadLocalConfig({
    ...(embedded ? {} : { DATABASE_URL: SERVER }),
    ...(natsUrl ? { NATS_URL: natsUrl } : {}),
    DATA_DIR: path.resolve('.cache/bench'),
    PORT: '0',
    LOG_LEVEL: 'warn',
  });
  const platform: Platform = await startPlatform({
    config,
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases: { auth: `vellum_auth_${suffix}`, revisions: `vellum_revisions_${suffix}`, items: `vellum_items_${suffix}` },
    overrides: { ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-password-1', RATE_LIMITER_ENABLED: 'false', LOGIN_STALL_TIME: '0' },
  });
  try {
    const gw = platform.url;
    const admin = (await api(gw, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data.access_token as string;
    // A restricted role: 10 of the 20 collections, 5 of them with a field list (data/delta reduced in SQL).
    const roles = (await api(gw, 'GET', '/roles', admin)).data as { id: string; name: string }[];
    let role = roles.find((r) => r.name === 'Bench editor');
    if (!role) {
      role = (await api(gw, 'POST', '/roles', admin, { name: 'Bench editor', app_access: true, admin_access: false })).data;
      for (let i = 0; i < 10; i++) {
        await api(gw, 'POST', '/permissions', admin, { role: role!.id, collection: `c${i}`, action: 'read', fields: i < 5 ? ['*'] : ['id', 'title', 'n'] });
      }
      await api(gw, 'POST', '/users', admin, { email: 'editor@example.com', password: 'bench-password-2', role: role!.id, status: 'active' });
    }
    const editor = (await api(gw, 'POST', '/auth/login', undefined, { email: 'editor@example.com', password: 'bench-password-2' })).data.access_token as string;
    // over NATS the audit events of the logins above arrive a moment later: let them land before the seed truncates
    await quiet(platform.databaseUrls.revisions);
    await seedRevisions(platform.databaseUrls.revisions, n, log);

    const gql = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }' });
    const deep = Math.max(0, n - 100_000);
    const search = JSON.stringify({ query: { filter: { _or: [{ collection: { _eq: 'c3' } }, { collection: { _eq: 'c4' } }] }, sort: ['-id'], limit: 25 } });
    const all: Scenario[] = [
      { name: 'admin list limit=25&sort=-id', path: '/revisions?limit=25&sort=-id', token: admin },
      { name: 'restricted list limit=25&sort=-id', path: '/revisions?limit=25&sort=-id', token: editor },
      { name: 'filter[collection][_eq]=c7&meta=filter_count', path: '/revisions?filter[collection][_eq]=c7&meta=filter_count&limit=25', token: admin },
      { name: `offset=${deep}`, path: `/revisions?limit=25&offset=${deep}`, token: admin },
      { name: 'SEARCH _or of two collections, sort=-id', path: '/revisions', method: 'SEARCH', body: search, token: editor },
      { name: 'GraphQL list limit 25', path: '', graphql: true, method: 'POST', body: gql, token: admin },
    ];
    const scenarios = all.filter((s) => !ONLY || s.name.includes(ONLY));
    const direct = platform.services.revisions.url;
    // what is measured is the real answer: a full page, the same through the gateway as straight to the service;
    // the statements the service ran for it are what the floor replays
    const routes: Record<string, Statement[]> = {};
    const database = new URL(platform.databaseUrls.revisions).pathname.slice(1);
    for (const [i, s] of scenarios.entries()) {
      const requestId = `bench-record-${i}`;
      const call = async (base: string, via: 'gateway' | 'direct') => {
        const url = s.graphql ? `${base}${via === 'gateway' ? '/graphql/system' : '/graphql'}` : base + s.path;
        const headers = { authorization: `Bearer ${s.token}`, 'content-type': 'application/json', 'x-request-id': requestId };
        const r = await fetch(url, { method: s.method ?? 'GET', headers, body: s.body });
        return { status: r.status, text: await r.text() };
      };
      const viaGateway = await call(gw, 'gateway');
      let viaDirect = { status: 0, text: '' };
      routes[`/s${i}`] = await recordQueries(database, async () => void (viaDirect = await call(direct, 'direct')), requestId);
      const page = JSON.parse(viaGateway.text);
      const rowsIn = (s.graphql ? page.data?.revisions : page.data)?.length;
      // the same JSON once parsed (a subgraph passes data/delta in the database's spacing; the gateway re-serializes)
      if (viaGateway.status !== 200 || viaDirect.status !== 200 || !isDeepStrictEqual(page, JSON.parse(viaDirect.text)) || rowsIn !== Math.min(25, n))
        throw new Error(`${s.name}: unexpected answer (${viaGateway.status}/${viaDirect.status}, ${rowsIn} rows): ${viaGateway.text.slice(0, 300)}`);
    }
    const dist = natsUrl
      ? await startDistributed({
          revisionsDatabaseUrl: platform.databaseUrls.revisions,
          authUrl: platform.services.auth.url,
          itemsUrl: platform.services.items.url,
          natsUrl,
        })
      : undefined;
    const floor = await startFloor(platform.databaseUrls.revisions, routes).catch(async (e) => {
      await dist?.stop();
      throw e;
    });
    try {
      if (dist) {
        for (const s of scenarios) {
          const url = s.graphql ? `${dist.url}/graphql/system` : dist.url + s.path;
          const ask = () =>
            fetch(url, { method: s.method ?? 'GET', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: s.body });
          let r = await ask();
          // the service process learns the access rules from messaging: a moment after it starts
          for (let i = 0; i < 50 && r.ok && !s.graphql && JSON.parse(await r.clone().text()).data?.length !== Math.min(25, n); i++) {
            await new Promise((w) => setTimeout(w, 200));
            r = await ask();
          }
          const text = await r.text();
          const rows = (s.graphql ? JSON.parse(text).data?.revisions : JSON.parse(text).data)?.length;
          if (r.status !== 200 || rows !== Math.min(25, n))
            throw new Error(`${s.name} (distributed): unexpected answer (${r.status}, ${rows} rows): ${text.slice(0, 300)}`);
        }
      }
      const floorPage = JSON.parse(await (await fetch(`${floor.url}/s0`)).text());
      if (floorPage.data?.length !== Math.min(25, n)) throw new Error(`floor: unexpected answer ${JSON.stringify(floorPage).slice(0, 200)}`);
      return await measureReads(
        n,
        scenarios,
        { gateway: gw, direct, floor, floorPath: (i) => `/s${i}`, distributed: dist },
        {
          connections: CONNECTIONS,
          seconds: SECONDS,
          warmup: WARMUP,
          rounds: ROUNDS,
          log,
        },
      );
    } finally {
      await floor.stop();
      await dist?.stop();
    }
  } finally {
    await platform.stop();
  }
}

async function main() {
  const all: Row[] = [];
  const nats = DISTRIBUTED ? await startNats() : undefined;
  try {
    for (const n of SIZES) all.push(...(await benchSize(n, nats?.url)));
  } finally {
    await nats?.stop();
  }
  const os = await import('node:os');
  console.log(
    `\n${os.cpus().length} × ${os.cpus()[0]?.model}; concurrency ${CONNECTIONS}, ${SECONDS} s per run, ${ROUNDS} interleaved rounds, loopback; ` +
      `load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}`,
  );
  const sums = summarise(all);
  const cell = (x: Summary, v: Via) => (Number.isFinite(x.rps[v]) ? `${x.rps[v]} (${x.p50[v]}/${x.p99[v]})` : 'n/a');
  const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
  console.log(
    '\nreq/s (p50/p99 ms), medians of the rounds; ratios are per round, then the median\n' +
      '| revisions | scenario | floor | via gateway | direct | distributed | gateway ÷ floor | direct ÷ floor | distributed ÷ floor | gateway p99 ÷ floor p99 | gateway ÷ direct |\n|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const x of sums)
    console.log(
      `| ${x.size.toLocaleString('en')} | ${x.scenario} | ${cell(x, 'floor')} | ${cell(x, 'gateway')} | ${cell(x, 'direct')} | ${cell(x, 'distributed')} | ` +
        `${f2(x.gatewayFloor)} | ${f2(x.directFloor)} | ${f2(x.distributedFloor)} | ${f2(x.p99Floor)} | ${f2(x.gatewayDirect)} |`,
    );
  console.log(
    '\nWhere the time goes (CPU µs per request, median of the rounds: floor | gateway run | direct run | distributed run, both its processes; ' +
      'the load average the runs ended at — CPU per request grows with it, so compare figures of one run only):\n' +
      '| revisions | scenario | serving process | PostgreSQL | autocannon | load |\n|---|---|---|---|---|---|',
  );
  for (const x of sums) {
    const trio = (k: keyof Row['cpu']) => (['floor', 'gateway', 'direct', 'distributed'] as Via[]).map((v) => x.cpu[v]?.[k] ?? '–').join(' \\| ');
    console.log(
      `| ${x.size.toLocaleString('en')} | ${x.scenario} | ${trio('server')} | ${trio('postgres')} | ${trio('autocannon')} | ${x.load.map((l) => l.toFixed(1)).join('–')} |`,
    );
  }
  mkdirSync('bench', { recursive: true });
  writeFileSync(
    'bench/results.json',
    JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, rows: all, summary: sums }, null, 2),
  );
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
