// Issue 36: reading a version (`?version=<key>`) against the same read without it, in one run, through the gateway
// of the embedded platform: one item and a list (limit 25), requests one at a time, interleaved; p50/p95 and the
// p95 ratio (goal: versioned ≤ 1.5× plain). VR_ITEMS (1,000) items, VR_REQUESTS (2,000) per read.
import { Client } from 'pg';
import { createEmbeddedMessaging, loadLocalConfig, startPlatform } from '@vellum/local';
import { createLogger } from '@vellum/logger';
import { SERVER } from '../services/revisions/bench/bench-service';
import { api } from './api';

const ITEMS = Number(process.env.VR_ITEMS ?? 1000);
const REQUESTS = Number(process.env.VR_REQUESTS ?? 2000);
const log = (m: string) => console.log(`[versions-read] ${m}`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function timed(url: string, token: string): Promise<number> {
  const t = process.hrtime.bigint();
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${url} → ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function main(): Promise<void> {
  const suffix = `vread_${Date.now()}`;
  const messaging = createEmbeddedMessaging();
  const platform = await startPlatform({
    config: loadLocalConfig({ DATABASE_URL: SERVER, DATA_DIR: '.cache/bench-versions-read', PORT: '0', LOG_LEVEL: 'warn' }),
    logger: createLogger({ name: 'bench', level: 'warn' }),
    databases: { auth: `vellum_auth_${suffix}`, revisions: `vellum_revisions_${suffix}`, items: `vellum_items_${suffix}` },
    messaging,
    overrides: { ADMIN_EMAIL: 'bench@example.com', ADMIN_PASSWORD: 'bench-password-1', RATE_LIMITER_ENABLED: 'false', LOGIN_STALL_TIME: '0' },
  });
  try {
    const base = platform.url;
    const token = (await api(base, 'POST', '/auth/login', undefined, { email: 'bench@example.com', password: 'bench-password-1' })).data.access_token;
    const fields = [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } },
      { field: 'title', type: 'string' },
      { field: 'n', type: 'integer' },
    ];
    await api(base, 'POST', '/collections', token, { collection: 'pages', meta: { versioning: true }, fields });
    const created = await api(
      base,
      'POST',
      '/items/pages',
      token,
      Array.from({ length: ITEMS }, (_, i) => ({ title: `page ${i}`, n: i })),
    );
    const item = (created.data as { id: number }[])[0]!.id;
    const v = (await api(base, 'POST', '/versions', token, { key: 'draft', collection: 'pages', item })).data.id;
    await api(base, 'POST', `/versions/${v}/save`, token, { title: 'draft title', n: -1 });
    const urls = {
      'one plain': `${base}/items/pages/${item}`,
      'one version': `${base}/items/pages/${item}?version=draft`,
      'list plain': `${base}/items/pages?limit=25&sort=n`,
      'list version': `${base}/items/pages?limit=25&sort=n&version=draft`,
    };
    const first = await api(base, 'GET', `/items/pages?limit=1&sort=n&version=draft`, token);
    if (first.data[0].title !== 'draft title') throw new Error('the versioned list does not show the draft');
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(urls).map((k) => [k, []]));
    for (let i = 0; i < 100; i++) for (const u of Object.values(urls)) await timed(u, token); // warm-up
    for (let i = 0; i < REQUESTS; i++) for (const [k, u] of Object.entries(urls)) times[k]!.push(await timed(u, token));
    for (const [k, t] of Object.entries(times)) log(`${k}: p50 ${ms(pct(t, 50))}, p95 ${ms(pct(t, 95))}`);
    for (const what of ['one', 'list'])
      log(
        `${what}: p95 version ÷ plain ${(pct(times[`${what} version`]!, 95) / pct(times[`${what} plain`]!, 95)).toFixed(2)} (${ITEMS} items, ${REQUESTS} requests each)`,
      );
  } finally {
    await platform.stop();
    await messaging.close();
    const c = new Client({ connectionString: SERVER });
    await c.connect();
    for (const s of ['auth', 'revisions', 'items']) await c.query(`DROP DATABASE IF EXISTS vellum_${s}_${suffix} WITH (FORCE)`);
    await c.end();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
