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

/** Maps anything thrown to an AppError: known errors as they are, body-parser errors, everything else → 500. */
export function normalizeError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; message?: string; expose?: boolean } | undefined;
  if (e?.type === 'entity.too.large') return new AppError('CONTENT_TOO_LARGE');
  if (e?.type === 'entity.parse.failed') return new AppError('INVALID_PAYLOAD', `Invalid payload. ${e.message}`, { reason: e.message });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError('INVALID_PAYLOAD', `Invalid payload. ${e.message}`, { reason: e.message });
  return new AppError('INTERNAL_SERVER_ERROR');
}
