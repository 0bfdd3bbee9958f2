import pino, { type Logger, type DestinationStream } from 'pino';
import { currentRequestId } from './request-context';

export type { Logger };

/** Paths whose values never reach a log line. */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'refresh_token',
  '*.refresh_token',
  'access_token',
  '*.access_token',
  'otp',
  '*.otp',
  'secret',
  '*.secret',
  'tfa_secret',
  '*.tfa_secret',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export interface LoggerOptions {
  name: string;
  level?: string;
  /** For tests: where lines go (default stdout). */
  destination?: DestinationStream;
}

/** A pino logger that stamps the current request id on every line and redacts credentials. */
export function createLogger({ name, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      name,
      level,
      base: { service: name },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/**
 * The logger of one service inside a process that hosts several (the embedded topology): the same level and
 * destination as `parent`, with `service` (and `name`) set to `service`. Not `parent.child({ service })`, which
 * would write the key twice on every line (log shippers disagree on which one wins).
 */
export function serviceLogger(parent: Logger, service: string): Logger {
  const destination = (parent as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  return createLogger({ name: service, level: parent.level, destination });
}
