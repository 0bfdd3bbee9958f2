// node --import tsx bench/history-latency.ts [checkout]: ack → revision readable for writes one at a time (no other
// load): the embedded platform of the checkout (default this one) in this process, LAT_WRITES (50) PATCHes of one
// item LAT_GAP_MS (20) apart, each followed by polling the revisions database every 2 ms until its revision is there.
// Prints p50 / p99 / max: the history's latency when nothing queues (the relay's wake-up and the recorder).
import { Client } from 'pg';
import { startWritesPlatform } from './writes-platform';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const WRITES = Number(process.env.LAT_WRITES ?? 50);
const GAP = Number(process.env.LAT_GAP_MS ?? 20);

(async () => {
  const tree = process.argv[2] ?? process.cwd();
  const p = await startWritesPlatform(tree, 'latency', SERVER, 10);
  const rev = new Client({ connectionString: p.databaseUrls.revisions });
  await rev.connect();
  const count = async () =>
    Number((await rev.query<{ n: string }>(`SELECT count(*) AS n FROM revisions WHERE collection = 'bench_items' AND item = '1'`)).rows[0]!.n);
  const lags: number[] = [];
  let expected = await count();
  const base = Math.floor(Math.random() * 1e9); // values never sent before (an unchanged PATCH records nothing)
  for (let k = 1; k <= WRITES; k++) {
    const r = await fetch(`${p.url}/items/bench_items/1`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ n: base + k }),
    });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`PATCH: ${r.status}`);
    const acked = performance.now();
    expected++;
    while ((await count()) < expected) await new Promise((res) => setTimeout(res, 2));
    lags.push(performance.now() - acked);
    await new Promise((res) => setTimeout(res, GAP));
  }
  lags.sort((a, b) => a - b);
  const q = (x: number) => lags[Math.min(lags.length - 1, Math.floor(x * lags.length))]!.toFixed(1);
  console.log(`${tree}: ack → revision readable over ${WRITES} writes one at a time: p50 ${q(0.5)} p99 ${q(0.99)} max ${q(1)} ms`);
  await rev.end();
  await p.stop();
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
