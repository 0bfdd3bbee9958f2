// node --import tsx bench/serve-revisions.ts <checkout> <databaseUrl>: the revisions service OF THAT CHECKOUT (its
// code, its node_modules) on a free port, tokens checked against the JWKS in env JWKS, a restricted role `r-editor`
// (c0–c8 every field, c10–c18 three); prints its URL. Used by compare-checkouts.ts; SIGINT exits (--cpu-prof writes).
const [tree, databaseUrl] = process.argv.slice(2) as [string, string];
const { startRevisions } = require(`${tree}/services/revisions/src/start`);
const { loadRevisionsConfig } = require(`${tree}/services/revisions/src/config`);
const { createInProcessMessaging } = require(`${tree}/libs/messaging/src`);
const { createLogger } = require(`${tree}/libs/logger/src`);
const { staticKeySource } = require(`${tree}/libs/tokens/src`);
const { ACCESS_BUCKET } = require(`${tree}/libs/contracts/src`);
(async () => {
  const jwks = JSON.parse(process.env.JWKS!);
  const keys = staticKeySource(jwks);
  const key = await keys.get('bench');
  const messaging = createInProcessMessaging();
  const config = loadRevisionsConfig({ DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn' });
  const service = await startRevisions(config, {
    logger: createLogger({ name: 'ab', level: 'warn' }),
    messaging,
    keySource: { get: async (kid: string) => (kid === 'bench' ? key : undefined) },
  });
  const kv = await messaging.keyValue(ACCESS_BUCKET);
  const perms: Record<string, unknown> = {};
  for (let i = 0; i < 20; i += 2) perms[`c${i}`] = { read: i < 10 ? ['*'] : ['id', 'title', 'n'] };
  await kv.put('r-editor', { role: 'r-editor', admin: false, app: true, permissions: perms, updated_at: new Date().toISOString() });
  await new Promise((r) => setTimeout(r, 200));
  process.stdout.write(`${service.url}\n`);
})();
process.on('SIGINT', () => process.exit(0));
