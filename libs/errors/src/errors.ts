import { AppError } from './app-error';

/** Constructors for every catalogue error, so call sites read as the contract does. */
export const errors = {
  invalidPayload: (reason: string) => new AppError('INVALID_PAYLOAD', `Invalid payload. ${reason}`, { reason }),
  invalidQuery: (reason: string) => new AppError('INVALID_QUERY', `Invalid query. ${reason}`, { reason }),
  failedValidation: (field: string, type: string, message?: string) =>
    new AppError('FAILED_VALIDATION', message ?? `Validation failed for field "${field}".`, { field, type }),
  invalidCredentials: () => new AppError('INVALID_CREDENTIALS'),
  invalidOtp: () => new AppError('INVALID_OTP'),
  tokenExpired: () => new AppError('TOKEN_EXPIRED'),
  userSuspended: () => new AppError('USER_SUSPENDED'),
  /** Logins from untrusted clients during a password spray: `challenge` solved at `difficulty` bits goes in `pow`. */
  proofOfWorkRequired: (challenge: string, difficulty: number) => new AppError('PROOF_OF_WORK_REQUIRED', undefined, { challenge, difficulty }),
  invalidToken: () => new AppError('INVALID_TOKEN'),
  forbidden: () => new AppError('FORBIDDEN'),
  /** A nested write reached a collection the caller may not write this way: the collection is named (the caller's own payload named it). */
  forbiddenIn: (collection: string, action: string) =>
    new AppError('FORBIDDEN', `You don't have permission to ${action} items in "${collection}".`, { collection, action }),
  invalidProvider: () => new AppError('INVALID_PROVIDER'),
  routeNotFound: (path: string) => new AppError('ROUTE_NOT_FOUND', `Route ${path} doesn't exist.`),
  /** A record named by a random id (a content version) that does not exist: nothing to probe, so 404 rather than 403. */
  notFound: (what: string) => new AppError('NOT_FOUND', `${what} not found.`),
  /** `If-Match` named another version than the item's own (`current`: its version now, when it exists). */
  preconditionFailed: (current?: number) => new AppError('PRECONDITION_FAILED', undefined, current === undefined ? {} : { version: current }),
  /** `If-Match` with entity tags on a write of several items: a list has no version, so no tag matches it (RFC 9110). */
  listHasNoVersion: () =>
    new AppError('PRECONDITION_FAILED', 'A list of items has no version: If-Match applies to one item (PATCH or DELETE /items/:collection/:id).'),
  /** A write the data allows but the platform refuses to make (`reason` says why): nothing was applied. */
  unprocessableContent: (reason: string) => new AppError('UNPROCESSABLE_CONTENT', `Can't process content. ${reason}`, { reason }),
  /** A promote named another `mainHash` than the item's current one (`mainHash`): nothing was applied. */
  versionHashMismatch: (mainHash: string) => new AppError('VERSION_HASH_MISMATCH', undefined, { mainHash }),
  /** The `Accept`ed media type cannot express this answer (`reason` says why). */
  notAcceptable: (reason: string) => new AppError('NOT_ACCEPTABLE', `The answer cannot be given in the requested media type. ${reason}`, { reason }),
  /** An as-of read before the oldest kept revision (retention): `earliest` is the first time that can be answered. */
  historyPruned: (earliest: string) => new AppError('HISTORY_PRUNED', `The history before ${earliest} is no longer kept.`, { earliest }),
  contentTooLarge: () => new AppError('CONTENT_TOO_LARGE'),
  /** The request line or headers overflowed the HTTP parser; `hint` tells a client with a long query where to put it. */
  uriTooLong: (hint: string) => new AppError('URI_TOO_LONG', `URI too long. ${hint}`),
  headersTooLarge: (hint: string) => new AppError('HEADERS_TOO_LARGE', `Request header fields too large. ${hint}`),
  requestsExceeded: (limit: number, resetAt: Date) => {
    const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - Date.now()) / 1000));
    return new AppError('REQUESTS_EXCEEDED', undefined, { limit, reset: resetAt.toISOString() }, { 'Retry-After': String(retryAfter) });
  },
  internal: () => new AppError('INTERNAL_SERVER_ERROR'),
  /** Shedding load to let a dependency catch up (back-pressure): retry after `retryAfterSeconds`. */
  backPressure: (service: string, reason: string, retryAfterSeconds: number) =>
    new AppError('SERVICE_UNAVAILABLE', `Service "${service}" is behind; retry later.`, { service, reason }, { 'Retry-After': String(retryAfterSeconds) }),
  serviceUnavailable: (service: string, reason: string) => new AppError('SERVICE_UNAVAILABLE', `Service "${service}" is unavailable.`, { service, reason }),
};
