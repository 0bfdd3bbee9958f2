// The distributed topology's reads with the query in a body (SEARCH) against the same read as a GET, through the
// gateway and straight to the revisions service: CPU µs per request of the gateway process and of the revisions
// service (each its own process, the bench's own nats-server) and the service's established / TIME-WAIT
// connections sampled during each run (a proxy that reconnects per request shows TIME-WAIT climbing). Over the
// 100,000-revision databases `npm run bench` leaves. BENCH_DURATION (4) s per run, BENCH_ROUNDS (2).
//   node --import tsx bench/distributed-body.ts
import { execFileSync } from 'node:child_process';
import { benchAdminToken, startBenchPlatform } from './bench-platform';
import { autocannon } from './autocannon';
import { cpuUs } from './proc-cpu';
import { startDistributed, startNats } from './distributed';

const SECONDS = Number(process.env.BENCH_DURATION ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** Connections to (or from) the port in a TCP state, by `ss`. */
const connections = (port: string, state: string) =>
  execFileSync('ss', ['-Htn', 'state', state, `( dport = :${port} or sport = :${port} )`])
    .toString()
    .split('\n')
    .filter(Boolean).length;

(async () => {
  const nats = await startNats();
  const p = await startBenchPlatform({ databaseUrl: 'postgres://root@127.0.0.1:5432/postgres', natsUrl: nats.url });
  const token = await benchAdminToken(p);
  const d = await startDistributed({
    revisionsDatabaseUrl: p.databaseUrls.revisions,
    authUrl: p.services.auth.url,
    itemsUrl: p.services.items.url,
    natsUrl: nats.url,
  });
  const search = JSON.stringify({ query: { filter: { _or: [{ collection: { _eq: 'c3' } }, { collection: { _eq: 'c4' } }] }, sort: ['-id'], limit: 25 } });
  const get = '/revisions?filter[_or][0][collection][_eq]=c3&filter[_or][1][collection][_eq]=c4&sort=-id&limit=25';
  const cases: [string, string, string | undefined][] = [
    ['SEARCH via gateway', `${d.url}/revisions`, search],
    ['GET (same filter) via gateway', `${d.url}${get}`, undefined],
    ['SEARCH direct', `${d.revisionsUrl}/revisions`, search],
    ['GET (same filter) direct', `${d.revisionsUrl}${get}`, undefined],
  ];
  const port = new URL(d.revisionsUrl).port;
  try {
    // warm-up: JIT, keep-alive pools, plan caches
    for (const [, url, body] of cases)
      await autocannon(url, { connections: 16, seconds: 2, headers: { Authorization: `Bearer ${token}` }, ...(body ? { method: 'SEARCH', body } : {}) });
    for (let round = 1; round <= ROUNDS; round++)
      for (const [name, url, body] of cases) {
        const [g0, r0, tw0] = [cpuUs(d.pids[0]), cpuUs(d.pids[1]), connections(port, 'time-wait')];
        let open = 0;
        const sample = setInterval(() => (open = Math.max(open, connections(port, 'established'))), 1000);
        const x = await autocannon(url, {
          connections: 16,
          seconds: SECONDS,
          headers: { Authorization: `Bearer ${token}` },
          ...(body ? { method: 'SEARCH', body } : {}),
        });
        clearInterval(sample);
        const per = (c0: number, pid: number) => Math.round((cpuUs(pid) - c0) / Math.max(1, x.total));
        console.log(
          `round ${round} ${name}: ${x.rps} req/s (non-2xx ${x.non2xx}); CPU µs/req gateway ${per(g0, d.pids[0])}, revisions ${per(r0, d.pids[1])}; ` +
            `service connections established ≤ ${open}, TIME-WAIT +${connections(port, 'time-wait') - tw0}`,
        );
      }
  } finally {
    await d.stop();
    await p.stop();
    await nats.stop();
  }
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
