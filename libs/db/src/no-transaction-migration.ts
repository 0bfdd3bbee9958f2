import type { Client } from 'pg';

/**
 * The first line of a migration that runs outside a transaction, one statement at a time — for what PostgreSQL
 * refuses inside one (`CREATE INDEX CONCURRENTLY`, which builds an index on a large table without blocking its
 * writes). Such a migration is recorded as started before its first statement and finished after its last; one
 * interrupted (a crash, a failed statement) is run again from its first statement at the next start, so each
 * statement must be idempotent (`IF NOT EXISTS`), and an index its interrupted build left INVALID is dropped first.
 */
export const NO_TRANSACTION = '-- vellum:no-transaction';

export const isNoTransaction = (sql: string): boolean => sql.trimStart().startsWith(NO_TRANSACTION);

/** A line without its `--` comment (a no-transaction migration holds no `--` inside a string literal). */
const code = (line: string) => line.replace(/--.*$/, '').trim();

/**
 * The statements of a no-transaction migration: each ends with `;` at the end of a line. Dollar-quoted bodies are
 * refused (their semicolons could not be told apart from the statements'): they belong in a transactional migration.
 */
export function statementsOf(name: string, sql: string): string[] {
  if (/\$[A-Za-z_0-9]*\$/.test(sql)) throw new Error(`migration ${name}: a ${NO_TRANSACTION} migration cannot hold dollar-quoted bodies`);
  const out: string[] = [];
  let current: string[] = [];
  for (const line of sql.replace(/\r\n/g, '\n').split('\n')) {
    if (!code(line) && current.length === 0) continue;
    current.push(line);
    if (code(line).endsWith(';')) {
      out.push(current.join('\n'));
      current = [];
    }
  }
  if (current.some((l) => code(l))) throw new Error(`migration ${name}: its last statement does not end with ";" at the end of a line`);
  return out;
}

const CONCURRENT_INDEX = /CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?("(?:[^"]|"")+"|[A-Za-z_][A-Za-z_0-9$]*)/gi;

/** The names of the indexes these statements build concurrently (as written: quoted names unquoted). */
export function concurrentIndexNames(statements: readonly string[]): string[] {
  const names: string[] = [];
  for (const s of statements)
    for (const m of s.matchAll(CONCURRENT_INDEX)) names.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!.toLowerCase());
  return names;
}

/**
 * Runs a no-transaction migration's statements on `db` (outside any transaction): first drops the INVALID indexes an
 * interrupted concurrent build of one of its indexes left behind (IF NOT EXISTS would otherwise keep them), in the
 * connection's search path.
 */
export async function runWithoutTransaction(db: Client, name: string, sql: string): Promise<number> {
  const statements = statementsOf(name, sql);
  const names = concurrentIndexNames(statements);
  if (names.length > 0) {
    const { rows } = await db.query<{ schema: string; name: string }>(
      `SELECT n.nspname AS schema, c.relname AS name FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE NOT i.indisvalid AND c.relname = ANY($1::text[]) AND n.nspname = ANY(current_schemas(false))`,
      [names],
    );
    for (const r of rows) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${db.escapeIdentifier(r.schema)}.${db.escapeIdentifier(r.name)}`);
  }
  for (const s of statements) await db.query(s);
  return statements.length;
}
