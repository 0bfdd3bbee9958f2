import { createLogger, type Logger } from '@vellum/logger';

/** A real logger (same shape, redaction and child loggers as in production) that writes nothing. */
export function silentLogger(name = 'test'): Logger {
  return createLogger({ name, level: 'silent' });
}
