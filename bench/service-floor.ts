// Issue 22's quick loop: the revisions service of this checkout (in this process, as bench/serve-revisions.ts starts
// it) against its floor (bench/floor-server.mjs replaying the statements the service ran for the same request) over
// the 100,000-revision database `npm run bench` leaves (AB_DB), in AB_ROUNDS (3) interleaved rounds of AB_SECONDS
// (5) per scenario (AB_ONLY: admin,restricted,filter_count,SEARCH), concurrency 16. Prints req/s, p99 and CPU µs
// per request of each, and service ÷ floor (req/s) per round. CPU of the service = this process (autocannon and the
// floor are their own processes).
//   node --import tsx bench/service-floor.ts
import { autocannon } from './autocannon';
import { benchTokens, scenarioOf } from './bench-tokens';
import { startFloor } from './floor';
import { cpuUs } from './proc-cpu';
import { recordQueries } from './record-queries';

const DB = process.env.AB_DB ?? 'postgres://root@127.0.0.1:5432/vellum_revisions_bench_100000';
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const ONLY = (process.env.AB_ONLY ?? 'admin,restricted,filter_count,SEARCH').split(',');

const selfCpu = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

(async () => {
  const { jwks, admin, editor } = benchTokens();
  process.env.JWKS = JSON.stringify(jwks);
  const url = await new Promise<string>((resolve) => {
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => {
      process.stdout.write = write;
      resolve(String(s).trim());
      return true;
    }) as typeof process.stdout.write;
    process.argv.push(process.cwd(), DB);
    require('./serve-revisions');
  });
  const database = new URL(DB).pathname.slice(1);
  for (const name of ONLY) {
    const s = scenarioOf(name, { admin, editor });
    const headers: Record<string, string> = { Authorization: `Bearer ${s.token}` };
    const call = () =>
      fetch(url + s.path, { method: s.method ?? 'GET', headers: { ...headers, ...(s.body && { 'Content-Type': 'application/json' }) }, body: s.body }).then(
        (r) => void r.text(),
      );
    const statements = await recordQueries(database, call);
    const floor = await startFloor(DB, { '/s0': statements });
    const opts = { connections: 16, headers, method: s.method, body: s.body };
    await autocannon(`${floor.url}/s0`, { ...opts, seconds: 2 });
    await autocannon(url + s.path, { ...opts, seconds: 2 });
    const ratios: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const f0 = cpuUs(floor.pid);
      const f = await autocannon(`${floor.url}/s0`, { ...opts, seconds: SECONDS });
      const fCpu = (cpuUs(floor.pid) - f0) / f.total;
      const v0 = selfCpu();
      const v = await autocannon(url + s.path, { ...opts, seconds: SECONDS });
      const vCpu = (selfCpu() - v0) / v.total;
      if (v.non2xx || v.errors) throw new Error(`${name}: ${v.non2xx} non-2xx, ${v.errors} errors`);
      ratios.push((v.rps / f.rps).toFixed(2));
      console.log(
        `${name} round ${r + 1}: floor ${f.rps} req/s p99 ${f.p99} ms ${Math.round(fCpu)} µs/req | service ${v.rps} req/s p99 ${v.p99} ms ${Math.round(vCpu)} µs/req | service ÷ floor ${(v.rps / f.rps).toFixed(2)}, CPU ${(vCpu / fCpu).toFixed(2)}×`,
      );
    }
    console.log(`${name}: service ÷ floor ${ratios.join(', ')}`);
    await floor.stop();
  }
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
