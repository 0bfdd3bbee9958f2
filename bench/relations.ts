// `npm run bench:relations`: a list of 25 articles with `fields=*,author.*,comments.*` (10 comments each) through the
// gateway of the embedded platform, against its floor — one hand-written statement (a join for the author,
// `json_agg` for the comments) behind bare node:http (bench/floor-server.mjs) — beside the plain list
// (`GET /items/articles?limit=25`) against `SELECT * … LIMIT 25`. Interleaved rounds, ratios to the floor only.
// BENCH_BASE=<checkout>: that checkout's platform too (its own process, bench/serve-relations.ts, same databases),
// measured in the same rounds: before/after in one run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { api } from './api';
import { autocannon } from './autocannon';
import { benchAdminToken, startBenchPlatform } from './bench-platform';
import { backendCpu, backendCpuBetween } from './backend-cpu';
import { startFloor } from './floor';
import { cpuUs } from './proc-cpu';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const ONLY = process.env.BENCH_ONLY?.split(','); // relational, plain
const SIZE = 7; // the platform's databases: vellum_<service>_bench_7, recreated by this bench
const BASE = process.env.BENCH_BASE;

/** Another checkout's embedded platform in its own process over the same databases: its url, admin token, pid. */
async function startBase(tree: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'serve-relations.ts'), path.resolve(tree), String(SIZE)], {
    cwd: tree,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_DATABASE_URL: SERVER },
  });
  // its logger writes to stdout too: the line that starts with the url
  const [url, token] = await new Promise<string[]>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`base platform exited (${code})`)));
    child.stdout!.on('data', (d) => {
      out += String(d);
      const line = out.split('\n').find((l) => l.startsWith('http'));
      if (line) resolve(line.trim().split(' '));
    });
  });
  return {
    url: url!,
    token: token!,
    pid: child.pid!,
    stop: () => new Promise<void>((r) => (child.removeAllListeners('exit'), child.once('exit', () => r()), child.kill('SIGINT'))),
  };
}

const RELATIONAL = `SELECT a.*, to_json(au.*) AS author,
       COALESCE((SELECT json_agg(c.* ORDER BY c.id) FROM content.comments c WHERE c.article = a.id), '[]') AS comments
  FROM content.articles a LEFT JOIN content.authors au ON au.id = a.author ORDER BY a.id LIMIT 25`;
const PLAIN = 'SELECT * FROM content.articles ORDER BY id LIMIT 25';

async function main() {
  const { Client } = await import('pg');
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  for (const s of ['auth', 'revisions', 'items']) await admin.query(`DROP DATABASE IF EXISTS vellum_${s}_bench_${SIZE} WITH (FORCE)`);
  await admin.end();
  const platform = await startBenchPlatform({ databaseUrl: SERVER, size: SIZE });
  try {
    const token = await benchAdminToken(platform);
    const call = async (method: string, url: string, body?: unknown): Promise<{ data: unknown }> => {
      // the seeding outruns the history now and then: back-pressure answers 503, so wait and send it again
      for (let attempt = 0; ; attempt++) {
        try {
          return await api(platform.url, method, url, token, body);
        } catch (e) {
          if (attempt > 20 || !String(e).includes('→ 503')) throw e;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    };
    const id = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };
    await call('POST', '/collections', { collection: 'authors', fields: [id, { field: 'name', type: 'string' }, { field: 'bio', type: 'text' }] });
    await call('POST', '/collections', { collection: 'articles', fields: [id, { field: 'title', type: 'string' }, { field: 'author', type: 'integer' }] });
    await call('POST', '/collections', { collection: 'comments', fields: [id, { field: 'body', type: 'text' }, { field: 'article', type: 'integer' }] });
    await call('POST', '/relations', { collection: 'articles', field: 'author', related_collection: 'authors' });
    await call('POST', '/relations', { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } });
    for (let i = 0; i < 100; i++) {
      const comments = Array.from({ length: 10 }, (_, j) => ({ body: `comment ${j} on article ${i}: ${'words '.repeat(8)}` }));
      await call('POST', '/items/articles', { title: `Article ${i}`, author: { name: `Author ${i}`, bio: 'A writer.' }, comments });
    }
    const itemsDb = SERVER.replace(/\/[^/]*$/, `/vellum_items_bench_${SIZE}`);
    const floor = await startFloor(itemsDb, { '/relational': [{ text: RELATIONAL, values: [] }], '/plain': [{ text: PLAIN, values: [] }] });
    const base = BASE ? await startBase(BASE) : undefined;
    try {
      const via = {
        relational: `${platform.url}/items/articles?limit=25&fields=*,author.*,comments.*`,
        plain: `${platform.url}/items/articles?limit=25`,
      };
      // the same answers (key order aside): the floor is the same work
      const [v, f] = await Promise.all([
        call('GET', via.relational.slice(platform.url.length)),
        fetch(`${floor.url}/relational`).then((r) => r.json() as Promise<{ data: unknown }>),
      ]);
      if (!isDeepStrictEqual(JSON.parse(JSON.stringify(v.data)), f.data)) throw new Error('the platform and the floor answer differently');
      const baseHeaders = base && { authorization: `Bearer ${base.token}` };
      if (base) {
        for (const name of ['relational', 'plain'] as const) {
          const [n, b] = await Promise.all(
            [`${via[name]}`, `${base.url}${via[name].slice(platform.url.length)}`].map((u, i) =>
              fetch(u, { headers: i ? baseHeaders : { authorization: `Bearer ${token}` } }).then((r) => r.text()),
            ),
          );
          if (n !== b) throw new Error(`${name}: this checkout and the base answer differently`);
        }
      }
      const headers = { authorization: `Bearer ${token}` };
      const ratios: Record<string, number[]> = { relational: [], plain: [] };
      const cpuRatios: Record<string, number[]> = { relational: [], plain: [] };
      const vsBase: Record<string, number[]> = { relational: [], plain: [] };
      const cpuVsBase: Record<string, number[]> = { relational: [], plain: [] };
      const pg = new Client({ connectionString: SERVER });
      await pg.connect();
      // CPU µs per request of the serving process (this one: the platform runs in it) and its PostgreSQL backends
      const measure = async <R extends { rps: number; total?: number }>(pid: number, run: () => Promise<R>) => {
        const [p0, b0] = [cpuUs(pid), await backendCpu(pg, [itemsDb.slice(itemsDb.lastIndexOf('/') + 1)])];
        const r = await run();
        const [p1, b1] = [cpuUs(pid), await backendCpu(pg, [itemsDb.slice(itemsDb.lastIndexOf('/') + 1)])];
        const n = r.total ?? r.rps * SECONDS;
        return { ...r, proc: (p1 - p0) / n, db: backendCpuBetween(b0, b1) / n };
      };
      console.log(`rounds start at ${(performance.now() / 1000).toFixed(1)} s`);
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of (['relational', 'plain'] as const).filter((n) => !ONLY || ONLY.includes(n))) {
          const floorRun = await measure(floor.pid, () => autocannon(`${floor.url}/${name}`, { connections: CONNECTIONS, seconds: SECONDS }));
          const vellum = await measure(process.pid, () => autocannon(via[name], { connections: CONNECTIONS, seconds: SECONDS, headers }));
          if (vellum.non2xx || vellum.errors) throw new Error(`${name}: ${vellum.non2xx} non-2xx, ${vellum.errors} errors`);
          const before =
            base &&
            (await measure(base.pid, () =>
              autocannon(`${base.url}${via[name].slice(platform.url.length)}`, { connections: CONNECTIONS, seconds: SECONDS, headers: baseHeaders }),
            ));
          if (before?.non2xx || before?.errors) throw new Error(`base ${name}: ${before.non2xx} non-2xx, ${before.errors} errors`);
          ratios[name]!.push(vellum.rps / floorRun.rps);
          cpuRatios[name]!.push((vellum.proc + vellum.db) / (floorRun.proc + floorRun.db));
          const us = (r: { proc: number; db: number }) => `${r.proc.toFixed(0)} + ${r.db.toFixed(0)} µs`;
          console.log(
            `round ${round + 1} ${name}: gateway ${vellum.rps} req/s, floor ${floorRun.rps} req/s → ${(vellum.rps / floorRun.rps).toFixed(2)}×; ` +
              `CPU per request (process + PostgreSQL) ${us(vellum)} against ${us(floorRun)} → ${cpuRatios[name]!.at(-1)!.toFixed(2)}×`,
          );
          if (before) {
            vsBase[name]!.push(vellum.rps / before.rps);
            cpuVsBase[name]!.push((vellum.proc + vellum.db) / (before.proc + before.db));
            console.log(
              `round ${round + 1} ${name} base: ${before.rps} req/s → ${(before.rps / floorRun.rps).toFixed(2)}× floor; CPU ${us(before)}; ` +
                `this ÷ base: req/s ${vsBase[name]!.at(-1)!.toFixed(2)}×, CPU per request ${cpuVsBase[name]!.at(-1)!.toFixed(2)}×`,
            );
          }
        }
      }
      // a scenario left out by BENCH_ONLY prints '-'
      const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(2) : '-');
      console.log(`median ÷ floor: fields=*,author.*,comments.* ${median(ratios.relational!)}×, plain list ${median(ratios.plain!)}×`);
      console.log(`median CPU per request ÷ floor's: relational ${median(cpuRatios.relational!)}×, plain ${median(cpuRatios.plain!)}×`);
      if (base) {
        console.log(`median this ÷ base, req/s: relational ${median(vsBase.relational!)}×, plain ${median(vsBase.plain!)}×`);
        console.log(`median this ÷ base, CPU per request: relational ${median(cpuVsBase.relational!)}×, plain ${median(cpuVsBase.plain!)}×`);
      }
      await pg.end();
    } finally {
      await floor.stop();
      await base?.stop();
    }
  } finally {
    await platform.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
