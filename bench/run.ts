// `npm run bench`: the whole platform as `npm start` composes it, on a PostgreSQL server (BENCH_DATABASE_URL,
// default the machine's 127.0.0.1:5432; `BENCH_DATABASE_URL=embedded` for the embedded one), with N revisions
// seeded over 20 collections. Every read path of the contract is measured with autocannon (concurrency 16,
// loopback) THROUGH THE GATEWAY and STRAIGHT TO THE REVISIONS SERVICE with real tokens from the auth service,
// at 1,000,000 and at 10,000 revisions. Prints a markdown table; writes bench/results.json.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@vellum/logger';
import { loadLocalConfig, startPlatform, type Platform } from '@vellum/local';
import { seedRevisions } from '../services/revisions/bench/seed';
import { autocannon, type LoadResult } from './autocannon';
import { cpuSpentBetween, cpuUs, postgresCpu } from './proc-cpu';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SIZES = (process.env.BENCH_SIZES ?? '1000000,10000').split(',').map(Number);
const ONLY = process.env.BENCH_ONLY; // substring of a scenario name
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2); // seconds of unmeasured load before each scenario (JIT, caches)

interface Row extends Omit<LoadResult, 'cpu'> {
  size: number;
  scenario: string;
  via: 'gateway' | 'direct';
  /** CPU µs per request: the platform process (gateway + services), PostgreSQL, autocannon. */
  cpu: { platform: number; postgres: number; autocannon: number };
}

/** One load run, with the CPU each side spent on it (from /proc: where the time goes). */
async function measured(url: string, opts: Parameters<typeof autocannon>[1]): Promise<Omit<Row, 'size' | 'scenario' | 'via'>> {
  const [self0, pg0] = [cpuUs(process.pid), postgresCpu()];
  const r = await autocannon(url, opts);
  const [self1, pg1] = [cpuUs(process.pid), postgresCpu()];
  const per = (us: number) => Math.round(us / Math.max(1, r.total));
  return { ...r, cpu: { platform: per(self1 - self0), postgres: per(cpuSpentBetween(pg0, pg1)), autocannon: per(r.cpu) } };
}

async function api(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} → ${r.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function benchSize(n: number): Promise<Row[]> {
  const log = (m: string) => console.log(`[${n.toLocaleString('en')}] ${m}`);
  const suffix = `bench_${n}`;
  const embedded = SERVER === 'embedded';
  const config = loadLocalConfig({
    ...(embedded ? {} : { DATABASE_URL: SERVER }),
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
    const admin = (await api(gw, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data
      .access_token as string;
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
    const editor = (await api(gw, 'POST', '/auth/login', undefined, { email: 'editor@example.com', password: 'bench-password-2' })).data
      .access_token as string;
    await seedRevisions(platform.databaseUrls.revisions, n, log);

    const gql = JSON.stringify({ query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item delta activity { action timestamp } } }' });
    const deep = Math.max(0, n - 100_000);
    const scenarios: { name: string; path: string; token: string; gqlPath?: string }[] = [
      { name: 'admin list limit=25&sort=-id', path: '/revisions?limit=25&sort=-id', token: admin },
      { name: 'restricted list limit=25&sort=-id', path: '/revisions?limit=25&sort=-id', token: editor },
      { name: 'filter[collection][_eq]=c7&meta=filter_count', path: '/revisions?filter[collection][_eq]=c7&meta=filter_count&limit=25', token: admin },
      { name: `offset=${deep}`, path: `/revisions?limit=25&offset=${deep}`, token: admin },
      { name: 'GraphQL list limit 25', path: '', gqlPath: 'graphql', token: admin },
    ];
    const rows: Row[] = [];
    for (const s of scenarios) {
      if (ONLY && !s.name.includes(ONLY)) continue;
      const load = (base: string, via: 'gateway' | 'direct') => ({
        url: s.gqlPath ? `${base}${via === 'gateway' ? '/graphql/system' : '/graphql'}` : base + s.path,
        headers: { Authorization: `Bearer ${s.token}` },
        ...(s.gqlPath ? { method: 'POST', body: gql } : {}),
      });
      // what is measured is the real answer: a full page, the same through the gateway as straight to the service
      const bodies = await Promise.all(
        (['gateway', 'direct'] as const).map(async (via) => {
          const { url, headers, method, body } = load(via === 'gateway' ? gw : platform.services.revisions.url, via) as ReturnType<typeof load> & { method?: string; body?: string };
          const r = await fetch(url, { method: method ?? 'GET', headers: { ...headers, 'content-type': 'application/json' }, body });
          return { status: r.status, text: await r.text() };
        }),
      );
      const page = JSON.parse(bodies[0]!.text);
      const rowsIn = (s.gqlPath ? page.data?.revisions : page.data)?.length;
      if (bodies.some((b) => b.status !== 200) || bodies[0]!.text !== bodies[1]!.text || rowsIn !== Math.min(25, n))
        throw new Error(`${s.name}: unexpected answer (${bodies.map((b) => b.status).join('/')}, ${rowsIn} rows): ${bodies[0]!.text.slice(0, 300)}`);
      if (WARMUP > 0) {
        const { url, ...rest } = load(gw, 'gateway');
        await autocannon(url, { connections: CONNECTIONS, seconds: WARMUP, ...rest });
      }
      for (const via of ['gateway', 'direct'] as const) {
        const { url, ...rest } = load(via === 'gateway' ? gw : platform.services.revisions.url, via);
        const r = await measured(url, { connections: CONNECTIONS, seconds: SECONDS, ...rest });
        rows.push({ size: n, scenario: s.name, via, ...r });
        log(
          `${s.name} via ${via}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms; CPU µs/req platform ${r.cpu.platform}, ` +
            `postgres ${r.cpu.postgres}, autocannon ${r.cpu.autocannon}${r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
        );
      }
    }
    return rows;
  } finally {
    await platform.stop();
  }
}

async function main() {
  const all: Row[] = [];
  for (const n of SIZES) all.push(...(await benchSize(n)));
  const os = await import('node:os');
  console.log(
    `\n${os.cpus().length} × ${os.cpus()[0]?.model}; concurrency ${CONNECTIONS}, ${SECONDS} s per run, loopback; ` +
      `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`,
  );
  console.log('\n| revisions | scenario | via gateway req/s (p50/p99 ms) | direct req/s (p50/p99 ms) | gateway ÷ direct |\n|---|---|---|---|---|');
  for (const r of all.filter((x) => x.via === 'gateway')) {
    const d = all.find((x) => x.via === 'direct' && x.size === r.size && x.scenario === r.scenario)!;
    console.log(
      `| ${r.size.toLocaleString('en')} | ${r.scenario} | ${r.rps} (${r.p50}/${r.p99}) | ${d.rps} (${d.p50}/${d.p99}) | ${(r.rps / d.rps).toFixed(2)} |`,
    );
  }
  console.log('\nWhere the time goes (CPU µs per request, gateway run | direct run):\n| revisions | scenario | platform process | PostgreSQL | autocannon |\n|---|---|---|---|---|');
  for (const r of all.filter((x) => x.via === 'gateway')) {
    const d = all.find((x) => x.via === 'direct' && x.size === r.size && x.scenario === r.scenario)!;
    const pair = (k: keyof Row['cpu']) => `${r.cpu[k]} \\| ${d.cpu[k]}`;
    console.log(`| ${r.size.toLocaleString('en')} | ${r.scenario} | ${pair('platform')} | ${pair('postgres')} | ${pair('autocannon')} |`);
  }
  const big = all.find((r) => r.size === Math.max(...SIZES) && r.via === 'gateway' && r.scenario.startsWith('admin list'));
  const small = all.find((r) => r.size === Math.min(...SIZES) && r.via === 'gateway' && r.scenario.startsWith('admin list'));
  const adminBig = big;
  const restrictedBig = all.find((r) => r.size === Math.max(...SIZES) && r.via === 'gateway' && r.scenario.startsWith('restricted'));
  if (big && small && big !== small) console.log(`\nadmin list p50 at ${big.size.toLocaleString('en')} ÷ p50 at ${small.size.toLocaleString('en')}: ${(big.p50 / small.p50).toFixed(2)}`);
  if (adminBig && restrictedBig) console.log(`restricted ÷ admin req/s (gateway): ${(restrictedBig.rps / adminBig.rps).toFixed(2)}`);
  mkdirSync('bench', { recursive: true });
  writeFileSync('bench/results.json', JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, seconds: SECONDS, rows: all }, null, 2));
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
