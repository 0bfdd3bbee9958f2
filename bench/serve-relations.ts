// node --import tsx bench/serve-relations.ts <checkout> <size>, run with <checkout> as its working folder: the
// embedded platform OF THAT CHECKOUT (its code, its node_modules, its bench keys) over the bench databases
// `vellum_<service>_bench_<size>` that bench/relations.ts seeded; prints `<url> <admin token>`. Used by
// relations.ts's BENCH_BASE (before/after in one run); SIGINT exits.
const [tree, size] = process.argv.slice(2) as [string, string];
const { startBenchPlatform, benchAdminToken } = require(`${tree}/bench/bench-platform`);
(async () => {
  const platform = await startBenchPlatform({ databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres', size: Number(size) });
  process.stdout.write(`${platform.url} ${await benchAdminToken(platform)}\n`);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
process.on('SIGINT', () => process.exit(0));
