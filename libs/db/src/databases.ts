// Database-level helpers that need a connection to the server's maintenance database.
import { Client } from 'pg';

/** The same server (credentials, host, port, options) with another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** The database a URL names (decoded), or undefined when it names none. */
export function databaseName(url: string): string | undefined {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  return name || undefined;
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Open a short-lived admin connection, run `fn`, close it. */
export async function withClient<T>(connectionString: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString, application_name: 'vellum-db-admin' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** CREATE DATABASE for each name that does not exist yet. Safe when several processes do it at once. */
export async function ensureDatabases(adminUrl: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await withClient(adminUrl, async (client) => {
    for (const name of names) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) continue;
      try {
        await client.query(`CREATE DATABASE ${quote(name)}`);
      } catch (err) {
        // Lost a race: 42P04 duplicate_database, or 23505 on pg_database's unique index when both inserted at once.
        const code = (err as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw err;
      }
    }
  });
}

/** DROP DATABASE IF EXISTS, disconnecting its sessions first (PostgreSQL 13+). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`));
}
