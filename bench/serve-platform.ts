// node --import tsx bench/serve-platform.ts <checkout> <size>: the embedded platform OF THAT CHECKOUT (its code, its
// node_modules; `startBenchPlatform` of its bench/bench-platform.ts) over the bench databases of <size> revisions
// on BENCH_DATABASE_URL's server, seeded when missing; prints `<url> <admin token>`. Used by
// compare-graphql-checkouts.ts; SIGINT exits.
const [tree, size] = process.argv.slice(2) as [string, string];
const { startBenchPlatform, benchAdminToken } = require(`${tree}/bench/bench-platform`);
const { seedRevisions } = require(`${tree}/services/revisions/bench/seed`);
(async () => {
  const platform = await startBenchPlatform({ databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres', size: Number(size) });
  await seedRevisions(platform.databaseUrls.revisions, Number(size), () => undefined);
  process.stdout.write(`${platform.url} ${await benchAdminToken(platform)}\n`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
process.on('SIGINT', () => process.exit(0));
