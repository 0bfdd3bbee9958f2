import { ApiError } from '../api/client';

/**
 * An API error placed on the form field it concerns: the envelope's `field`, or the field its message quotes
 * (`"email" must be a valid email`, in `extensions.reason`) when that is one of the form's fields; otherwise a form-level message.
 */
export function placeError(err: unknown, fields: string[]): { field?: string; message: string } {
  const message = err instanceof ApiError && err.reason ? err.reason : err instanceof Error ? err.message : String(err);
  const named = err instanceof ApiError && err.field ? err.field : message.match(/^"(\w+)"/)?.[1];
  return named && fields.includes(named) ? { field: named, message } : { message };
}
