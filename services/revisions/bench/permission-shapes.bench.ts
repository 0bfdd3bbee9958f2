/* eslint-disable no-restricted-properties -- a bench script reads its own knobs */
// Issue 18.1: does every permission shape read as fast as admin? The revisions service alone (bench-service.ts)
// over four layouts of N revisions (BENCH_SIZES, default 1,000,000), each in its own scratch database:
//   even-20      20 collections of 5% each; roles reading 10 of them (50%) and one (5%)
//   90-10        'big' holds 90%, 'small' 10%; a role for each
//   rare-newest  'rare' holds 0.01% of the rows, at the newest ids; a role reading only it
//   rare-oldest  the same at the oldest ids
//   all-shapes   (only with BENCH_ONLY=all-shapes) the last three in one database, for sizes where seeding four
//                databases takes too long (10M): 'rare_new' and 'rare_old' hold 0.01% each at the newest and at the
//                oldest ids, the rest is 90% 'big' and 10% 'small'; a role for each of the four
// For each role and each read (list limit=25&sort=-id, the same with meta=total_count, a deep offset at 90% of what
// the caller can see), admin and the role run in BENCH_ROUNDS (3) interleaved rounds of BENCH_DURATION s: prints
// req/s, p50, and restricted ÷ admin per round and the median. Goal: ≥ 0.8 in every row.
import { benchToken, load, startBenchService } from './bench-service';

const SIZES = (process.env.BENCH_SIZES ?? '1000000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY; // substring of a layout name

interface Layout {
  name: string;
  /** Revision g's collection (g = 1…n, `$1` = n). */
  collection: string;
  /** Role → the collections it reads (all fields), and the rows it can see out of n. */
  roles: Record<string, { read: string[]; rows: (n: number) => number }>;
  /** Run only when BENCH_ONLY names it. */
  optIn?: boolean;
}

const rare = (n: number) => Math.max(Math.floor(n / 10_000), 1);
const LAYOUTS: Layout[] = [
  {
    name: 'even-20',
    collection: `'c' || (g % 20)`,
    roles: {
      'ten of 20 (50%)': { read: Array.from({ length: 10 }, (_, i) => `c${i * 2}`), rows: (n) => n / 2 },
      'one of 20 (5%)': { read: ['c7'], rows: (n) => n / 20 },
    },
  },
  {
    name: '90-10',
    collection: `CASE WHEN g % 10 = 0 THEN 'small' ELSE 'big' END`,
    roles: { 'big (90%)': { read: ['big'], rows: (n) => n * 0.9 }, 'small (10%)': { read: ['small'], rows: (n) => n / 10 } },
  },
  {
    name: 'rare-newest',
    collection: `CASE WHEN g > $1::int - greatest($1::int / 10000, 1) THEN 'rare' ELSE 'c' || (g % 20) END`,
    roles: { 'rare (0.01%, newest ids)': { read: ['rare'], rows: rare } },
  },
  {
    name: 'rare-oldest',
    collection: `CASE WHEN g <= greatest($1::int / 10000, 1) THEN 'rare' ELSE 'c' || (g % 20) END`,
    roles: { 'rare (0.01%, oldest ids)': { read: ['rare'], rows: rare } },
  },
  {
    name: 'all-shapes',
    collection: `CASE WHEN g > $1::int - greatest($1::int / 10000, 1) THEN 'rare_new' WHEN g <= greatest($1::int / 10000, 1) THEN 'rare_old'
                      WHEN g % 10 = 0 THEN 'small' ELSE 'big' END`,
    roles: {
      'big (90%)': { read: ['big'], rows: (n) => Math.ceil(((n - 2 * rare(n)) * 9) / 10) },
      'small (10%)': { read: ['small'], rows: (n) => Math.floor((n - 2 * rare(n)) / 10) },
      'rare_new (0.01%, newest ids)': { read: ['rare_new'], rows: rare },
      'rare_old (0.01%, oldest ids)': { read: ['rare_old'], rows: rare },
    },
    optIn: true,
  },
];

const READS: [string, (visible: number) => string][] = [
  ['list', () => '/revisions?limit=25&sort=-id'],
  ['total_count', () => '/revisions?limit=25&sort=-id&meta=total_count'],
  ['deep offset', (visible) => `/revisions?limit=25&sort=-id&offset=${Math.floor(visible * 0.9)}`],
];

/** The middle value (the mean of the two middle ones for an even count: with 2 rounds, not the larger one). */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const rows: string[] = [];

async function checkAnswer(url: string, token: string, read: string[]): Promise<void> {
  const r = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  const body = (await r.json()) as { data: { collection: string }[] };
  if (r.status !== 200 || body.data.length === 0 || body.data.some((x) => !read.includes(x.collection)))
    throw new Error(`unexpected answer for ${url}: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
}

async function benchLayout(layout: Layout, n: number): Promise<void> {
  const log = (m: string) => console.log(`[${layout.name} ${n.toLocaleString('en')}] ${m}`);
  const service = await startBenchService(`vellum_revisions_shapes_${layout.name.replace('-', '_')}_${n}`, n, log, layout.collection);
  try {
    const admin = benchToken('r-admin', true);
    for (const [i, [role, { read, rows: visible }]] of Object.entries(layout.roles).entries()) {
      await service.setRole(`r-${i}`, Object.fromEntries(read.map((c) => [c, ['*']])));
      const token = benchToken(`r-${i}`);
      for (const [label, path] of READS) {
        const adminUrl = `${service.url}${path(n)}`;
        const roleUrl = `${service.url}${path(visible(n))}`;
        await checkAnswer(roleUrl, token, read);
        const ratios: number[] = [];
        const seen: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const a = await load(adminUrl, admin);
          const r = await load(roleUrl, token);
          if (a.errors + a.non2xx + r.errors + r.non2xx > 0) throw new Error(`errors under load: ${JSON.stringify({ a, r })}`);
          ratios.push(r.rps / a.rps);
          seen.push(`${a.rps}/${r.rps} (p50 ${a.p50}/${r.p50} ms)`);
        }
        const line = `| ${n.toLocaleString('en')} | ${layout.name} | ${role} | ${label} | ${seen.join(', ')} | ${ratios.map((x) => x.toFixed(2)).join(', ')} | **${median(ratios).toFixed(2)}** |`;
        log(line);
        rows.push(line);
      }
    }
  } finally {
    await service.stop();
  }
}

async function main() {
  for (const n of SIZES) for (const layout of LAYOUTS) if (ONLY ? layout.name.includes(ONLY) : !layout.optIn) await benchLayout(layout, n);
  console.log(`\n| revisions | layout | role | read | admin/role req/s per round | role ÷ admin per round | median |\n|---|---|---|---|---|---|---|`);
  for (const r of rows) console.log(r);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
