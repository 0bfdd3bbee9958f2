import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OUTBOX_CHANNEL, OUTBOX_MIGRATIONS_DIR } from '../src';

// The outbox DDL lives once, as the library's migration; the services' migrations (hand-written, immutable once
// applied) include it verbatim. This keeps the copies from drifting apart.

const ddl = readFileSync(path.join(OUTBOX_MIGRATIONS_DIR, '20260101000000_outbox', 'migration.sql'), 'utf8').trim();
const servicesDir = path.join(__dirname, '..', '..', '..', 'services');
const serviceMigrations = readdirSync(servicesDir).flatMap((service) => {
  const dir = path.join(servicesDir, service, 'prisma', 'migrations');
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
  return names.map((name) => ({ file: `${service}/${name}`, sql: readFileSync(path.join(dir, name, 'migration.sql'), 'utf8') }));
});

test('the trigger notifies on OUTBOX_CHANNEL', () => {
  expect(ddl).toContain(`pg_notify('${OUTBOX_CHANNEL}', '')`);
});

test('every service migration that creates the outbox includes the library DDL verbatim (auth and items do)', () => {
  const creating = serviceMigrations.filter((m) => m.sql.includes('CREATE TABLE "outbox"'));
  expect(creating.map((m) => m.file.split('/')[0]).sort()).toEqual(expect.arrayContaining(['auth', 'items']));
  for (const m of creating) expect({ file: m.file, includesDdl: m.sql.includes(ddl) }).toEqual({ file: m.file, includesDdl: true });
});

test('the items service includes the local wake-up (its inserts need not NOTIFY) verbatim', () => {
  const wake = readFileSync(path.join(OUTBOX_MIGRATIONS_DIR, '20261205000000_outbox_local_wake', 'migration.sql'), 'utf8').trim();
  expect(serviceMigrations.filter((m) => m.sql.includes(wake)).map((m) => m.file)).toEqual(['items/20261205000000_outbox_local_wake']);
});
