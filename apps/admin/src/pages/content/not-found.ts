import type { ApiError } from '../../api/client';

/**
 * The API answers 403 for a missing record as for a forbidden one (nothing leaks): the app says what the user meets
 * most — "not found" — instead of "no permission".
 */
export function notFoundMessage(error: ApiError, what: string): string {
  return error.code === 'FORBIDDEN' ? `${what} was not found (or is not shared with your role).` : error.message;
}
