import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { writeLoad } from './write-load';
import { historyBacklog, waitForHistory, type WriteTarget } from './write-targets';

const SECONDS = Number(process.env.WB_HISTORY_SECONDS ?? 10);
const q = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]! : NaN);

/**
 * The history under a sustained write load (issue 41.3): PATCH at `rate` per second on a fixed schedule (open loop)
 * for WB_HISTORY_SECONDS, the revision backlog (writes acknowledged, revision not recorded yet) printed each
 * second, and meanwhile a probe that PATCHes item `probeItem` one write at a time and measures from its
 * acknowledgement until its revision is readable in the revisions database (ack → revision readable).
 */
export async function historyUnderLoad(
  t: WriteTarget,
  items: Client,
  o: { rate: number; label: string; backlog?: () => Promise<string>; drained?: () => Promise<number> },
  probeItem: number,
): Promise<void> {
  const rev = new Client({ connectionString: t.databaseUrls!.revisions });
  await rev.connect();
  const count = async () =>
    Number(
      (await rev.query<{ n: string }>(`SELECT count(*) AS n FROM revisions WHERE collection = 'bench_items' AND item = $1`, [String(probeItem)])).rows[0]!.n,
    );
  let expected = await count();
  let running = true;
  const lags: number[] = [];
  const statuses: Record<number, number> = {};
  const probe = (async () => {
    // a value never sent before (a PATCH of the stored value writes nothing and records no revision)
    for (let k = Math.floor(Math.random() * 1e9); running; k++) {
      const r = await fetch(`${t.itemsUrl}/${probeItem}`, {
        method: 'PATCH',
        headers: { ...t.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ n: k }),
      });
      await r.arrayBuffer();
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status !== 200) continue;
      const acked = performance.now();
      expected++;
      while ((await count()) < expected) await new Promise((res) => setTimeout(res, 1));
      lags.push(performance.now() - acked);
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  const samples: string[] = [];
  const sampler = setInterval(() => {
    void (o.backlog ? o.backlog() : historyBacklog(items).then((b) => `${b.rows}/${b.oldestMs}ms`)).then((b) => samples.push(b));
  }, 1000);
  const x = await writeLoad({
    url: t.itemsUrl,
    mode: 'one',
    connections: 8,
    seconds: SECONDS,
    idFrom: 1,
    idTo: probeItem / 2,
    rate: o.rate,
    headers: t.headers,
  });
  clearInterval(sampler);
  running = false;
  await probe;
  const drainMs = o.drained ? await o.drained() : await waitForHistory(items);
  await rev.end();
  lags.sort((a, b) => a - b);
  console.log(
    `history ${o.label} (${o.rate} PATCH/s offered, ${Math.round(x.writes / SECONDS)} acknowledged/s, statuses ${JSON.stringify(x.status)}, write p99 ${x.p99} ms): ` +
      `backlog each second (rows/oldest) ${samples.join(' ')}; drained ${drainMs} ms after the load; ` +
      `ack→revision readable p50 ${q(lags, 0.5).toFixed(1)} p99 ${q(lags, 0.99).toFixed(1)} max ${q(lags, 1).toFixed(1)} ms over ${lags.length} probes (probe statuses ${JSON.stringify(statuses)})`,
  );
}
