// Items as they were (`?at=`): (A) the revisions service alone over AS_OF_SIZE seeded revisions in AS_OF_MONTHS
// monthly partitions plus one hot item with AS_OF_HOT revisions — one item at a random time, one request at a time,
// p50/p95/p99 of each statement (as-of-arms.ts) in AS_OF_ROUNDS interleaved rounds, their buffers per read and
// plans (the database is dropped after unless AS_OF_KEEP=1; a kept one is reused, not seeded again); (B) the embedded platform through its gateway — the list of a collection as it
// was (`?at=`) against the plain list, same page size, interleaved, p50 of each and their ratio.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseUrl } from '@vellum/db';
import { createEmbeddedMessaging, loadLocalConfig, startPlatform } from '@vellum/local';
import { createLogger } from '@vellum/logger';
import { benchToken, SERVER, startBenchService } from '../services/revisions/bench/bench-service';
import { EVEN_20 } from '../services/revisions/bench/seed';
import { api } from './api';
import { buffersOf, restoreArm, sqlOf, stateAtArms, useArm } from './as-of-arms';

const SIZE = Number(process.env.AS_OF_SIZE ?? 1_000_000);
const MONTHS = Number(process.env.AS_OF_MONTHS ?? 3);
const HOT = Number(process.env.AS_OF_HOT ?? 100_000);
const REQUESTS = Number(process.env.AS_OF_REQUESTS ?? 2000);
const LIST_ITEMS = Number(process.env.AS_OF_LIST_ITEMS ?? 1000);
const LIST_VERSIONS = Number(process.env.AS_OF_LIST_VERSIONS ?? 10);
/** Characters of a `body` field in every listed item (0: none), e.g. 4000 for states PostgreSQL keeps out of line (TOAST). */
const LIST_BODY = Number(process.env.AS_OF_LIST_BODY ?? 0);
const ROUNDS = Number(process.env.AS_OF_ROUNDS ?? 10);
const log = (m: string) => console.log(`[as-of] ${m}`);

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function timed(url: string, token: string): Promise<number> {
  const t = process.hrtime.bigint();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await r.arrayBuffer();
  // 403: the item did not exist yet at that time (an answer too, with one more descent)
  if (r.status !== 200 && r.status !== 403) throw new Error(`${url} → ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function oneItem(): Promise<void> {
  process.env.BENCH_MONTHS = String(MONTHS); // the seed's partitions (bench-service.ts reads it)
  const database = `vellum_revisions_asof_${SIZE}_${MONTHS}`; // kept with AS_OF_KEEP=1: the next run reuses it
  const service = await startBenchService(database, SIZE, log, EVEN_20);
  const db = new Client({ connectionString: databaseUrl(SERVER, database) });
  await db.connect();
  try {
    // the hot item: `c0`/`hot`, HOT revisions a second apart from 2025-01-01
    const has = Number((await db.query(`SELECT count(*) AS n FROM revisions WHERE collection = 'c0' AND item = 'hot'`)).rows[0].n);
    if (has !== HOT) {
      await db.query(`DELETE FROM revisions WHERE collection = 'c0' AND item = 'hot'`);
      await db.query(
        `INSERT INTO revisions (activity, collection, item, data, delta, event_id, timestamp, delta_computed, item_version)
         SELECT 0, 'c0', 'hot', jsonb_build_object('id', 'hot', 'title', 'Title ' || g, 'n', g), jsonb_build_object('n', g), 'hot-' || g,
                timestamptz '2025-01-01T00:00:00Z' + g * interval '1 second', true, g
           FROM generate_series(1, $1::int) AS g`,
        [HOT],
      );
      await db.query('VACUUM ANALYZE revisions');
    }
    const admin = benchToken('admin', true);
    const span = await db.query(`SELECT min(timestamp) AS lo, max(timestamp) AS hi FROM revisions WHERE collection = 'c0'`);
    const lo = (span.rows[0].lo as Date).getTime();
    const hi = (span.rows[0].hi as Date).getTime();
    const at = () => new Date(lo + Math.random() * (hi - lo)).toISOString();
    const randomItem = () => String(20 * Math.floor(Math.random() * 1000));
    const arms = stateAtArms();
    // the migration dropped the index the `before` arm's plan reads (revisions_item_state_idx replaced it): built
    // again here, for the bench only, so that arm still measures the plan before
    if (arms.some((a) => a.name.startsWith('before')))
      await db.query(`CREATE INDEX IF NOT EXISTS revisions_collection_item_timestamp_idx ON revisions (collection, item, timestamp)`);
    // every arm in each round, the order turned round by round: the arms share the machine's load and the cache
    for (const [name, item] of [
      ['an item of c0 (its revisions spread over the months)', randomItem],
      [`the hot item (${HOT} revisions)`, () => 'hot'],
    ] as const) {
      const times = arms.map(() => [] as number[]);
      for (let r = -1; r < ROUNDS; r++) {
        for (let k = 0; k < arms.length; k++) {
          const a = (k + Math.max(0, r)) % arms.length;
          useArm(arms[a]!);
          const n = r < 0 ? 100 : Math.ceil(REQUESTS / ROUNDS); // round -1: warm-up
          for (let i = 0; i < n; i++) {
            const t = await timed(`${service.url}/items/c0/${item()}?at=${at()}`, admin);
            if (r >= 0) times[a]!.push(t);
          }
        }
      }
      restoreArm();
      for (const [a, arm] of arms.entries()) {
        const t = times[a]!;
        const vs =
          a === 0
            ? ''
            : `; ${arms[0]!.name.split(':')[0]} ÷ this: p50 ${(pct(times[0]!, 50) / pct(t, 50)).toFixed(2)}, p95 ${(pct(times[0]!, 95) / pct(t, 95)).toFixed(2)}`;
        log(`one item at a random time, ${name}, ${arm.name}: p50 ${ms(pct(t, 50))}, p95 ${ms(pct(t, 95))}, p99 ${ms(pct(t, 99))} (${t.length} requests${vs})`);
      }
    }
    // in PostgreSQL alone: each arm's buffers and time per read over random items, interleaved; then one plan each
    const args = (): [string, string, string] => ['c0', randomItem(), at()];
    const sqls = await Promise.all(arms.map((arm) => sqlOf(arm, db)));
    const sums = arms.map(() => ({ touched: 0, read: 0, execMs: 0 }));
    for (let r = 0; r < ROUNDS; r++)
      for (const [a, sql] of sqls.entries()) {
        const b = await buffersOf(db, sql, 20, args);
        sums[a]!.touched += b.touched / ROUNDS;
        sums[a]!.read += b.read / ROUNDS;
        sums[a]!.execMs += b.execMs / ROUNDS;
      }
    for (const [a, arm] of arms.entries())
      log(
        `${arm.name}, in PostgreSQL (${20 * ROUNDS} random reads): ${sums[a]!.touched.toFixed(1)} buffers (${sums[a]!.read.toFixed(1)} read), ${ms(sums[a]!.execMs)}`,
      );
    for (const [a, arm] of arms.entries()) {
      const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sqls[a]}`, args());
      log(`plan of one read, ${arm.name}:\n${plan.rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n')}`);
    }
  } finally {
    restoreArm();
    await db.end();
    await service.stop();
    if (process.env.AS_OF_KEEP !== '1') await dropDatabase(database);
  }
}

async function dropDatabase(name: string): Promise<void> {
  const c = new Client({ connectionString: SERVER });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
}

/** The list shapes measured, each as-of against the same plain list (`n` differs per item: `n` = key mod 7 + version). */
const SHAPES: [name: string, query: string][] = [
  ['key sort', 'limit=25'],
  ['field sort', 'limit=25&sort=-title'],
  ['filter + field sort', 'limit=25&filter[title][_contains]=7&sort=n'],
  ['meta=total_count', 'limit=25&meta=total_count'],
  ['offset 500', 'limit=25&offset=500&sort=n'],
];
/** AS_OF_LISTS of the platforms compared (before,after): `keyed` was main's paths, `sql` this code's. */
const MODES = (process.env.AS_OF_MODES ?? 'keyed,sql').split(',');

interface ListPlatform {
  url: string;
  token: string;
  middle: string;
  now: string;
  stop(): Promise<void>;
}

/** The embedded platform with AS_OF_LISTS=`mode`, a collection of LIST_ITEMS items × LIST_VERSIONS + 1 revisions. */
async function listPlatform(mode: string): Promise<ListPlatform> {
  const suffix = `asof_${mode}_${Date.now()}`;
  const messaging = createEmbeddedMessaging();
  const platform = await startPlatform({
    config: loadLocalConfig({ DATABASE_URL: SERVER, DATA_DIR: `.cache/bench-as-of-${mode}`, PORT: '0', LOG_LEVEL: 'warn' }),
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases: { auth: `vellum_auth_${suffix}`, revisions: `vellum_revisions_${suffix}`, items: `vellum_items_${suffix}` },
    messaging,
    overrides: {
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-password-1',
      RATE_LIMITER_ENABLED: 'false',
      LOGIN_STALL_TIME: '0',
      AS_OF_LISTS: mode,
    },
  });
  const stop = async () => {
    await platform.stop();
    await messaging.close();
    const c = new Client({ connectionString: SERVER });
    await c.connect();
    if (process.env.AS_OF_KEEP === '1') console.log(`[as-of] kept vellum_*_${suffix}`);
    else for (const s of ['auth', 'revisions', 'items']) await c.query(`DROP DATABASE IF EXISTS vellum_${s}_${suffix} WITH (FORCE)`);
    await c.end();
  };
  try {
    const token = (await api(platform.url, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data.access_token;
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'n', type: 'integer' },
      ...(LIST_BODY ? [{ field: 'body', type: 'text' }] : []),
    ];
    await api(platform.url, 'POST', '/collections', token, { collection: 'pages', fields });
    const body = () => (LIST_BODY ? { body: randomBytes(LIST_BODY).toString('base64').slice(0, LIST_BODY) } : {});
    const keys: number[] = [];
    // in requests of 100 (a body of 1,000 large items is over the API's 1 MB)
    for (let from = 0; from < LIST_ITEMS; from += 100) {
      const page = Array.from({ length: Math.min(100, LIST_ITEMS - from) }, (_, j) => ({ title: `page ${from + j}`, n: (from + j) % 7, ...body() }));
      const created = await api(platform.url, 'POST', '/items/pages', token, page);
      keys.push(...(created.data as { id: number }[]).map((x) => x.id));
    }
    let middle = '';
    for (let v = 1; v <= LIST_VERSIONS; v++) {
      // one PATCH per residue of the key mod 7, so that `n` differs between items at every time
      for (let r = 0; r < 7; r++) {
        const some = keys.filter((k) => k % 7 === r);
        // the history's back-pressure answers 503 while the revisions catch up: wait and send again
        for (let tries = 0; ; tries++) {
          const sent = await api(platform.url, 'PATCH', '/items/pages', token, { keys: some, data: { n: r + v } }).then(
            () => true,
            (e: Error) => (/ 503 /.test(e.message) && tries < 50 ? false : Promise.reject(e)),
          );
          if (sent) break;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      if (v === Math.ceil(LIST_VERSIONS / 2)) middle = new Date().toISOString();
    }
    const count = LIST_ITEMS * (LIST_VERSIONS + 1);
    for (let i = 0; i < 200; i++) {
      const r = await api(platform.url, 'GET', `/revisions?filter[collection][_eq]=pages&meta=filter_count&limit=0`, token);
      if (r.meta.filter_count >= count) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // a user's database has statistics (autovacuum analyzes a table within a minute of its first rows): so does the bench's
    if (process.env.AS_OF_ANALYZE !== '0')
      for (const name of ['revisions', 'items'] as const) {
        const c = new Client({ connectionString: platform.databaseUrls[name] });
        await c.connect();
        await c.query('ANALYZE');
        await c.end();
      }
    return { url: platform.url, token, middle, now: new Date().toISOString(), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Each shape as-of (now and mid-history) against the plain list, on a platform per AS_OF_MODES entry (before and
 * after), every request interleaved with the others: p50 of each and plain ÷ as-of per platform.
 */
async function lists(): Promise<void> {
  const platforms: Record<string, ListPlatform> = {};
  try {
    for (const mode of MODES) platforms[mode] = await listPlatform(mode);
    const urls: { key: string; url: string; token: string }[] = [];
    for (const [mode, p] of Object.entries(platforms))
      for (const [shape, q] of SHAPES) {
        urls.push({ key: `${mode}|${shape}|plain`, url: `${p.url}/items/pages?${q}`, token: p.token });
        urls.push({ key: `${mode}|${shape}|at now`, url: `${p.url}/items/pages?${q}&at=${p.now}`, token: p.token });
        urls.push({ key: `${mode}|${shape}|at mid-history`, url: `${p.url}/items/pages?${q}&at=${p.middle}`, token: p.token });
      }
    const times: Record<string, number[]> = Object.fromEntries(urls.map((u) => [u.key, []]));
    for (let i = 0; i < 20; i++) for (const u of urls) await timed(u.url, u.token); // warm-up
    const rounds = Number(process.env.AS_OF_LIST_REQUESTS ?? 200);
    for (let i = 0; i < rounds; i++) for (const u of i % 2 ? [...urls].reverse() : urls) times[u.key]!.push(await timed(u.url, u.token));
    log(`list of ${LIST_ITEMS} items × ${LIST_VERSIONS + 1} revisions through the gateway, ${rounds} interleaved requests each; p50 and plain ÷ as-of (p50)`);
    for (const [shape] of SHAPES)
      for (const mode of MODES) {
        const plain = pct(times[`${mode}|${shape}|plain`]!, 50);
        const cell = (v: string) => {
          const p50 = pct(times[`${mode}|${shape}|${v}`]!, 50);
          return `${ms(p50)} (${(plain / p50).toFixed(2)})`;
        };
        log(`| ${shape} | ${mode} | ${ms(plain)} | ${cell('at now')} | ${cell('at mid-history')} |`);
      }
  } finally {
    for (const p of Object.values(platforms)) await p.stop();
  }
}

async function main(): Promise<void> {
  const only = process.env.AS_OF_ONLY;
  if (!only || only === 'one') await oneItem();
  if (!only || only === 'list') await lists();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
