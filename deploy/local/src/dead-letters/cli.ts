// `npm run dead-letters -- list [--json] | replay <id>`: the messages a consumer gave up on, in either topology.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { databaseUrl } from '@vellum/db';
import { loadLocalConfig, type LocalConfig } from '../config';
import { DATABASES } from '../platform';
import type { DeadLetterSource } from './dead-letter-source';
import { natsDeadLetters } from './nats-source';
import { outboxDeadLetters } from './outbox-source';

const USAGE = `usage: npm run dead-letters -- list [--json]
       npm run dead-letters -- replay <id>

NATS_URL set (distributed topology): the JetStream streams MAIL_DLQ and ITEMS_DLQ (NATS_PREFIX, credentials and
TLS honoured: the NATS_* settings of every process).
Otherwise (npm start, running): the outbox rows of the auth and items databases that a consumer dead-lettered
(DATABASE_URL, or the embedded PostgreSQL under DATA_DIR).`;

/** The embedded PostgreSQL of a running `npm start`: its port is in postmaster.pid (4th line). */
function embeddedServerUrl(config: LocalConfig): string {
  const pidFile = path.join(config.dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile))
    throw new Error(`no running embedded PostgreSQL under ${config.dataDir}: start Vellum (npm start) first, or set DATABASE_URL / NATS_URL`);
  const port = readFileSync(pidFile, 'utf8').split('\n')[3]?.trim();
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

async function open(config: LocalConfig): Promise<DeadLetterSource> {
  if (config.messaging) return natsDeadLetters({ ...config.messaging, name: 'vellum-dead-letters' });
  const server = config.DATABASE_URL ?? embeddedServerUrl(config);
  return outboxDeadLetters({ auth: databaseUrl(server, DATABASES.auth), items: databaseUrl(server, DATABASES.items) });
}

export async function runDeadLetters(args: string[], config: LocalConfig, out: (line: string) => void): Promise<number> {
  const [command, arg] = args;
  if (command !== 'list' && command !== 'replay') {
    out(USAGE);
    return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  }
  if (command === 'replay' && !arg) {
    out('replay needs the id of a dead letter (see `list`)');
    return 2;
  }
  const source = await open(config);
  try {
    if (command === 'replay') {
      if (!(await source.replay(arg))) {
        out(`no dead letter with id ${arg} in ${source.describe}`);
        return 1;
      }
      out(`replayed ${arg}: handed to its consumers again`);
      return 0;
    }
    const rows = await source.list();
    if (args.includes('--json')) out(JSON.stringify(rows, null, 2));
    else {
      out(`${rows.length} dead letter(s) in ${source.describe}`);
      for (const r of rows)
        out(`${r.at}  ${r.where}  ${r.id}  ${r.subject}  ${r.durable ?? ''}${r.deliveryCount ? ` after ${r.deliveryCount} deliveries` : ''}: ${r.reason}`);
    }
    return 0;
  } finally {
    await source.close();
  }
}

if (require.main === module) {
  runDeadLetters(process.argv.slice(2), loadLocalConfig(), (l) => console.log(l)).then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(`dead-letters: ${err.message}`);
      process.exit(1);
    },
  );
}
