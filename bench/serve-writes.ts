// node --import tsx bench/serve-writes.ts <checkout> <name>: the embedded platform OF THAT CHECKOUT (its code, its
// node_modules) over fresh databases `vellum_<service>_writes_<name>` on BENCH_DATABASE_URL's server, with the
// collection `bench_items` (id, title, n) seeded with WB_ITEMS items, its notes and versioned drafts
// (bench/writes-platform.ts); prints `ready {"url","token","versionIds","databaseUrls"}` once ready. Used by
// bench/writes.ts (each platform its own process, so its CPU is its own); SIGINT/SIGTERM exit.
import { startWritesPlatform } from './writes-platform';

const [tree, name] = process.argv.slice(2) as [string, string];
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';

(async () => {
  const platform = await startWritesPlatform(tree, name, SERVER, Number(process.env.WB_ITEMS ?? 2000));
  process.stdout.write(
    `ready ${JSON.stringify({ url: platform.url, token: platform.token, versionIds: platform.versionIds, databaseUrls: platform.databaseUrls })}\n`,
  );
  const stop = () => void platform.stop().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
