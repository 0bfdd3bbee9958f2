// `npm run bench:tokens` (issue 14): the revisions list with an API token vs with a JWT, same user, same role, same
// answer — through the gateway and straight to the revisions service, in interleaved rounds (autocannon in its own
// process, concurrency 16). The platform as `npm start` composes it, on the machine's PostgreSQL
// (BENCH_DATABASE_URL, or `embedded`), BENCH_REVISIONS (100,000) seeded revisions. Goal: token ÷ JWT ≥ 0.9.
import path from 'node:path';
import os from 'node:os';
import { createLogger } from '@vellum/logger';
import { loadLocalConfig, startPlatform } from '@vellum/local';
import { seedRevisions } from '../services/revisions/bench/seed';
import { autocannon, type LoadResult } from './autocannon';
import { api } from './api';
import { cpuUs } from './proc-cpu';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const N = Number(process.env.BENCH_REVISIONS ?? 100_000);
const PATH = '/revisions?limit=25&sort=-id';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const embedded = SERVER === 'embedded';
  const platform = await startPlatform({
    config: loadLocalConfig({ ...(embedded ? {} : { DATABASE_URL: SERVER }), DATA_DIR: path.resolve('.cache/bench'), PORT: '0', LOG_LEVEL: 'warn' }),
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases: { auth: 'vellum_auth_bench_tokens', revisions: 'vellum_revisions_bench_tokens', items: 'vellum_items_bench_tokens' },
    overrides: { ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-password-1', RATE_LIMITER_ENABLED: 'false', LOGIN_STALL_TIME: '0' },
  });
  try {
    const gw = platform.url;
    const direct = platform.services.revisions.url;
    const admin = (await api(gw, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data.access_token;
    const roles = (await api(gw, 'GET', '/roles', admin)).data as { id: string; name: string }[];
    let role = roles.find((r) => r.name === 'Bench editor');
    if (!role) {
      role = (await api(gw, 'POST', '/roles', admin, { name: 'Bench editor', app_access: true })).data as { id: string; name: string };
      for (let i = 0; i < 10; i++)
        await api(gw, 'POST', '/permissions', admin, { role: role.id, collection: `c${i}`, action: 'read', fields: i < 5 ? ['*'] : ['id', 'title', 'n'] });
      await api(gw, 'POST', '/users', admin, { email: 'editor@example.com', password: 'bench-password-2', role: role.id });
    }
    const jwt = (await api(gw, 'POST', '/auth/login', undefined, { email: 'editor@example.com', password: 'bench-password-2' })).data.access_token as string;
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const token = (await api(gw, 'POST', '/users/me/tokens', jwt, { name: 'bench', expires })).data.token as string;
    await seedRevisions(platform.databaseUrls.revisions, N, (m) => console.log(m));

    // the same full page with either credential, through the gateway and direct (waits for the token's map entry)
    const page = async (base: string, t: string) => (await fetch(base + PATH, { headers: { authorization: `Bearer ${t}` } })).text();
    const deadline = Date.now() + 10_000;
    while ((await page(direct, token)) !== (await page(direct, jwt)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const base of [gw, direct]) {
      const [a, b] = [await page(base, jwt), await page(base, token)];
      if (a !== b || JSON.parse(a).data?.length !== 25) throw new Error(`unexpected answers at ${base}: ${a.slice(0, 200)} | ${b.slice(0, 200)}`);
    }

    // CPU µs per request of this (the platform's) process: on a loaded shared machine the rate moves with the
    // neighbours, the work per request does not
    const run = async (base: string, t: string) => {
      const before = cpuUs(process.pid);
      const r = await autocannon(base + PATH, { connections: CONNECTIONS, seconds: SECONDS, headers: { authorization: `Bearer ${t}` } });
      return { ...r, cpuPerRequest: Math.round((cpuUs(process.pid) - before) / r.total) };
    };
    type Run = LoadResult & { cpuPerRequest: number };
    const check = (r: Run, what: string) => {
      if (r.errors || r.non2xx) throw new Error(`${what}: ${r.errors} errors, ${r.non2xx} non-2xx`);
      return r;
    };
    await run(gw, jwt); // warm-up (JIT, caches, pools)
    await run(gw, token);
    const ratios: Record<'gateway' | 'direct', number[]> = { gateway: [], direct: [] };
    const cpuRatios: Record<'gateway' | 'direct', number[]> = { gateway: [], direct: [] };
    const cpu: Record<string, number[]> = {};
    const rates: Record<string, number[]> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [via, base] of [
        ['gateway', gw],
        ['direct', direct],
      ] as const) {
        // alternate which credential goes first, so a drift of the machine does not favour one
        const order = round % 2 ? (['jwt', 'token'] as const) : (['token', 'jwt'] as const);
        const r: Record<string, Run> = {};
        for (const cred of order) r[cred] = check(await run(base, cred === 'jwt' ? jwt : token), `${via} ${cred}`);
        ratios[via].push(r.token!.rps / r.jwt!.rps);
        cpuRatios[via].push(r.jwt!.cpuPerRequest / r.token!.cpuPerRequest);
        (cpu[`${via} jwt`] ??= []).push(r.jwt!.cpuPerRequest);
        (cpu[`${via} token`] ??= []).push(r.token!.cpuPerRequest);
        (rates[`${via} jwt`] ??= []).push(r.jwt!.rps);
        (rates[`${via} token`] ??= []).push(r.token!.rps);
        console.log(
          `round ${round} ${via}: JWT ${r.jwt!.rps} req/s (p50 ${r.jwt!.p50} / p99 ${r.jwt!.p99} ms), API token ${r.token!.rps} req/s ` +
            `(p50 ${r.token!.p50} / p99 ${r.token!.p99} ms) → ${(r.token!.rps / r.jwt!.rps).toFixed(2)}×; CPU µs/request ${r.jwt!.cpuPerRequest} vs ${r.token!.cpuPerRequest}`,
        );
      }
    }
    console.log(
      `\n${os.cpus().length} × ${os.cpus()[0]?.model}; ${N.toLocaleString('en')} revisions; ${PATH} as a restricted role; concurrency ${CONNECTIONS}, ` +
        `${SECONDS} s per run, ${ROUNDS} rounds; load average ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')}`,
    );
    console.log(
      '| via | JWT req/s | API token req/s | token ÷ JWT rate | CPU µs/request JWT | API token | JWT CPU ÷ token CPU |\n|---|---|---|---|---|---|---|',
    );
    for (const via of ['gateway', 'direct'] as const) {
      console.log(
        `| ${via} | ${median(rates[`${via} jwt`]!)} | ${median(rates[`${via} token`]!)} | ${median(ratios[via]).toFixed(2)} | ` +
          `${median(cpu[`${via} jwt`]!)} | ${median(cpu[`${via} token`]!)} | ${median(cpuRatios[via]).toFixed(2)} |`,
      );
    }
    console.log('(medians of the rounds; ratios per round, then the median)');
  } finally {
    await platform.stop();
  }
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
