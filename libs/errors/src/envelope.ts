import { AppError } from './app-error';

export interface ErrorBody {
  errors: { message: string; extensions: Record<string, unknown> & { code: string } }[];
}

/** The REST envelope: always an array of errors. */
export function toErrorBody(err: AppError, requestId?: string): ErrorBody {
  const extensions: Record<string, unknown> & { code: string } = { code: err.code, ...err.extensions };
  if (err.code === 'INTERNAL_SERVER_ERROR' && requestId) extensions.request_id = requestId;
  return { errors: [{ message: err.message, extensions }] };
}

/**
 * Error codes that mean "the database is down or saturated", not "a bug": Prisma's P1001/P1002 (cannot reach),
 * P1017 (connection closed), P2024 (no pool connection in time), P2028 (transaction could not start in time);
 * PostgreSQL's admin shutdown / cannot connect now / too many connections / connection failures; Node's socket
 * errors. They answer 503 SERVICE_UNAVAILABLE (bounded, retryable) instead of a 500.
 */
const UNAVAILABLE_CODES = new Set([
  'P1001',
  'P1002',
  'P1017',
  'P2024',
  'P2028',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
]);

/**
 * PostgreSQL refused a value's text: a NUL character, which neither `text` nor `jsonb` can hold (22021, 22P05), from a
 * request body a schema let through. The caller's input, not a bug: 400, and its transaction rolled back.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

/** The first of an error's codes (its own, Prisma's driver-adapter cause, its cause's) that `codes` holds. */
function codeIn(err: unknown, codes: Set<string>): string | undefined {
  const e = err as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: unknown;
  };
  for (const c of [e?.code, e?.meta?.driverAdapterError?.cause?.originalCode, (e?.cause as { code?: unknown })?.code]) {
    if (typeof c === 'string' && codes.has(c)) return c;
  }
  return undefined;
}

/** Maps anything thrown to an AppError: known errors as they are, body-parser errors, a database that is down → 503, everything else → 500. */
export function normalizeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const unavailable = codeIn(err, UNAVAILABLE_CODES);
  if (unavailable)
    return new AppError('SERVICE_UNAVAILABLE', 'A dependency is unavailable, retry later.', {
      service: 'database',
      reason: unavailable,
    });
  if (codeIn(err, UNSTORABLE_TEXT_CODES)) {
    const reason = 'text cannot contain NUL characters (\\u0000)';
    return new AppError('INVALID_PAYLOAD', `Invalid payload. ${reason}`, { reason });
  }
  const e = err as { type?: string; status?: number; message?: string; expose?: boolean } | undefined;
  if (e?.type === 'entity.too.large') return new AppError('CONTENT_TOO_LARGE');
  if (e?.type === 'entity.parse.failed') return new AppError('INVALID_PAYLOAD', `Invalid payload. ${e.message}`, { reason: e.message });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError('INVALID_PAYLOAD', `Invalid payload. ${e.message}`, { reason: e.message });
  // the client closed the connection before its body arrived: nobody reads the answer, and nothing is logged
  if (e?.type === 'request.aborted') return new AppError('INVALID_PAYLOAD', 'Invalid payload. The request was aborted.', { reason: 'request aborted' });
  // a body whose Content-Encoding (gzip, deflate, br) does not decode: zlib's own error, without a status
  if (typeof (err as { code?: unknown } | undefined)?.code === 'string' && /^Z_/.test((err as { code: string }).code)) {
    const reason = `the body does not decode as its Content-Encoding says (${e?.message ?? 'zlib'})`;
    return new AppError('INVALID_PAYLOAD', `Invalid payload. ${reason}`, { reason });
  }
  // express's router: a path segment whose percent-encoding is malformed (`%E0%A4%A`)
  if (err instanceof URIError && e?.status === 400)
    return new AppError('INVALID_QUERY', `Invalid query. ${e.message}`, { reason: e.message ?? 'malformed URL' });
  return new AppError('INTERNAL_SERVER_ERROR');
}
