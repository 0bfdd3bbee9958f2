import { catalogue, type ErrorCode } from './catalogue';

export type ErrorExtensions = Record<string, unknown>;

/** An error the API answers with: a catalogue code, its status, a message and extra `extensions`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extensions: ErrorExtensions;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, extensions: ErrorExtensions = {}, headers: Record<string, string> = {}) {
    super(message ?? catalogue[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = catalogue[code].status;
    this.extensions = extensions;
    this.headers = headers;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
