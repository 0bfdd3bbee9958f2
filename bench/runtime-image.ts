// Runtime image before/after (issue 16): the size of what an image holds under /app, and a service's cold start
// (process spawn → first `GET /server/ping` answered), measured in one run, rounds interleaved, medians.
//   before: the whole installed workspace (every dev dependency), `node --import tsx <service>/src/main.ts`
//   after:  the service's runtime tree (scripts/assemble-image.mjs), `node <service>/dist/main.js`
// Needs a PostgreSQL admin URL and a NATS server:
//   DATABASE_ADMIN_URL=postgres://root@127.0.0.1:5432/postgres NATS_URL=nats://127.0.0.1:4222 node --import tsx bench/runtime-image.ts
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '@vellum/testing';

const ROOT = path.resolve(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ADMIN_URL = process.env.DATABASE_ADMIN_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SERVICES = ['services/auth', 'services/revisions', 'gateway'];

const du = (dir: string, exclude: string[] = []) =>
  Number(execFileSync('du', ['-sk', ...exclude.map((e) => `--exclude=${e}`), dir], { encoding: 'utf8' }).split('\t')[0]) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function coldStart(cwd: string, args: string[], env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, LOG_LEVEL: 'error', ...env, PORT: String(port) }, stdio: 'ignore' });
  try {
    for (;;) {
      if (
        await fetch(`http://127.0.0.1:${port}/server/ping`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return performance.now() - t0;
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - t0 > 60_000) throw new Error(`${args.join(' ')} did not answer in 60 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'vellum-image-bench-'));
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const databases: string[] = [];
  try {
    if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('build failed');
    const before = du(ROOT, ['.git', '.cache', 'data', 'coverage']);
    console.log(`\n/app before (the whole installed workspace, as the tsx image held it): ${before.toFixed(0)} MB`);
    console.log('| service | /app after | ÷ before | cold start tsx (median) | cold start dist (median) | dist ÷ tsx |');
    console.log('|---|---|---|---|---|---|');
    for (const service of SERVICES) {
      const tree = path.join(work, path.basename(service));
      execFileSync(process.execPath, ['scripts/assemble-image.mjs', service, tree], { cwd: ROOT, stdio: 'ignore' });
      const after = du(tree);
      const db = `vellum_image_bench_${path.basename(service)}_${Date.now()}`;
      await admin.query(`CREATE DATABASE ${db}`);
      databases.push(db);
      const env: Record<string, string> = {
        NATS_URL,
        DATABASE_URL: ADMIN_URL.replace(/\/[^/]*$/, `/${db}`),
        AUTH_KEYS_DIR: path.join(work, 'keys'),
        AUTH_URL: 'http://127.0.0.1:9', // never called before the first ping
      };
      const tsx: number[] = [];
      const dist: number[] = [];
      await coldStart(ROOT, ['--import', 'tsx', `${service}/src/main.ts`], env); // migrations, keys: once, unmeasured
      for (let i = 0; i < ROUNDS; i++) {
        tsx.push(await coldStart(ROOT, ['--import', 'tsx', `${service}/src/main.ts`], env));
        dist.push(await coldStart(tree, [`${service}/dist/main.js`], env));
      }
      const [t, d] = [median(tsx), median(dist)];
      console.log(
        `| ${service} | ${after.toFixed(0)} MB | ${(after / before).toFixed(2)}× | ${t.toFixed(0)} ms | ${d.toFixed(0)} ms | ${(d / t).toFixed(2)}× |`,
      );
    }
  } finally {
    for (const db of databases) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
    rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
