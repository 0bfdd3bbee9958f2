import { createLogger } from '@vellum/logger';
import { createApp } from '../app';
import { loadAuthConfig } from '../config';
import { createPrisma } from '../data/prisma';
import type { AuthContext } from '../domain/context';
import { CliError } from './command';

/** pg and Prisma codes for: connection refused / host unknown / database missing / authentication failed. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '3D000', '28P01', '28000', 'P1000', 'P1001', 'P1003', 'P1017']);

/**
 * The auth service's context (configuration from the environment, database, keys) for one CLI command, closed
 * afterwards. A bad configuration is one CliError naming every bad variable.
 */
export async function withAuthContext<T>(env: Record<string, string | undefined>, fn: (ctx: AuthContext) => Promise<T>): Promise<T> {
  let config;
  try {
    config = loadAuthConfig(env);
  } catch (e) {
    throw new CliError((e as Error).message.replace(/\n\s*/g, ' '));
  }
  const db = createPrisma(config.DATABASE_URL, 2);
  const built = createApp({ db, config, logger: createLogger({ name: 'auth-cli', level: 'warn' }) });
  try {
    return await fn(built.ctx);
  } catch (e) {
    const err = e as Error & { code?: string; errorCode?: string };
    const code = err.code ?? err.errorCode;
    if (code && UNREACHABLE.has(code)) {
      // Prisma's message quotes the calling code: its last line says what happened
      const why = (err.message || code).trim().split('\n').at(-1)!.trim();
      throw new CliError(`cannot reach the database at DATABASE_URL: ${why}`);
    }
    throw e;
  } finally {
    await built.close().catch(() => undefined); // its GraphQL server never started here
    await db.$disconnect();
  }
}
