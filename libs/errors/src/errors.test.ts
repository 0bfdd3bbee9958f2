import { GraphQLError } from 'graphql';
import { AppError, catalogue, errors, formatGraphQLError, normalizeError, toErrorBody } from './index';

describe('error catalogue', () => {
  it('gives every contract code its status', () => {
    expect(catalogue.INVALID_PAYLOAD.status).toBe(400);
    expect(catalogue.INVALID_CREDENTIALS.status).toBe(401);
    expect(catalogue.TOKEN_EXPIRED.status).toBe(401);
    expect(catalogue.INVALID_TOKEN.status).toBe(403);
    expect(catalogue.FORBIDDEN.status).toBe(403);
    expect(catalogue.ROUTE_NOT_FOUND.status).toBe(404);
    expect(catalogue.NOT_ACCEPTABLE.status).toBe(406);
    expect(catalogue.HISTORY_PRUNED.status).toBe(410);
    expect(catalogue.REQUESTS_EXCEEDED.status).toBe(429);
    expect(catalogue.SERVICE_UNAVAILABLE.status).toBe(503);
    for (const [code, { status }] of Object.entries(catalogue)) {
      expect(code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(status).toBeGreaterThanOrEqual(400);
    }
  });

  it('builds the envelope with extensions, and the request id only on 500', () => {
    expect(toErrorBody(errors.invalidQuery('limit must be an integer'), 'r1')).toEqual({
      errors: [
        {
          message: 'Invalid query. limit must be an integer',
          extensions: { code: 'INVALID_QUERY', reason: 'limit must be an integer' },
        },
      ],
    });
    expect(toErrorBody(errors.internal(), 'r1').errors[0].extensions).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
      request_id: 'r1',
    });
  });

  it('carries Retry-After on REQUESTS_EXCEEDED', () => {
    const e = errors.requestsExceeded(50, new Date(Date.now() + 2500));
    expect(e.status).toBe(429);
    expect(e.headers['Retry-After']).toBe('3');
    expect(e.extensions).toMatchObject({ limit: 50 });
  });

  it('normalises body-parser errors and hides unknown ones', () => {
    expect(normalizeError(Object.assign(new Error('x'), { type: 'entity.too.large' })).code).toBe('CONTENT_TOO_LARGE');
    expect(normalizeError(Object.assign(new Error('Unexpected end'), { type: 'entity.parse.failed' })).code).toBe('INVALID_PAYLOAD');
    // what a client's bad request makes node, zlib or the router throw: 400s, not 500s
    expect(normalizeError(Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400 })).status).toBe(400);
    const gzip = normalizeError(Object.assign(new Error('incorrect header check'), { code: 'Z_DATA_ERROR', errno: -3 }));
    expect([gzip.code, gzip.extensions.reason]).toEqual(['INVALID_PAYLOAD', expect.stringContaining('Content-Encoding')]);
    expect(normalizeError(Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 })).code).toBe('INVALID_QUERY');
    const hidden = normalizeError(new Error('db password is hunter2'));
    expect(hidden.code).toBe('INTERNAL_SERVER_ERROR');
    expect(hidden.message).not.toMatch(/hunter2/);
  });

  it('formats GraphQL errors with the same codes', () => {
    const fromApp = formatGraphQLError({ message: 'x', path: ['a'] }, new GraphQLError('x', { originalError: errors.forbidden() }));
    expect(fromApp.extensions).toEqual({ code: 'FORBIDDEN' });
    expect(formatGraphQLError({ message: 'bad', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, new GraphQLError('bad')).extensions).toEqual({
      code: 'GRAPHQL_VALIDATION',
    });
    const unknown = formatGraphQLError({ message: 'secret', path: ['a'] }, new GraphQLError('secret', { originalError: new Error('secret') }));
    expect(unknown).toMatchObject({
      message: 'An unexpected error occurred.',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(new AppError('INVALID_OTP').message).toBe('Invalid user OTP.');
  });
});

describe('a database that is down or saturated', () => {
  it('answers 503 SERVICE_UNAVAILABLE, not 500, for pool/transaction timeouts and lost connections', () => {
    const prismaTxTimeout = Object.assign(new Error('Transaction API error: Unable to start a transaction in the given time.'), { code: 'P2028' });
    expect(normalizeError(prismaTxTimeout)).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      extensions: { service: 'database', reason: 'P2028' },
    });
    const adapter = Object.assign(new Error('Raw query failed'), {
      code: 'P2010',
      meta: { driverAdapterError: { cause: { originalCode: '57P01' } } },
    });
    expect(normalizeError(adapter).code).toBe('SERVICE_UNAVAILABLE');
    expect(normalizeError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).code).toBe('SERVICE_UNAVAILABLE');
    expect(normalizeError(Object.assign(new Error('unique violation'), { code: '23505' })).code).toBe('INTERNAL_SERVER_ERROR');
  });
});

describe('text the database cannot store', () => {
  it('answers 400 INVALID_PAYLOAD for a NUL character, from pg or through Prisma’s driver adapter', () => {
    const reason = 'text cannot contain NUL characters (\\u0000)';
    const pg = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    expect(normalizeError(pg)).toMatchObject({ code: 'INVALID_PAYLOAD', status: 400, extensions: { reason } });
    const prisma = Object.assign(new Error('Database error'), { code: 'P2039', meta: { driverAdapterError: { cause: { originalCode: '22P05' } } } });
    expect(normalizeError(prisma)).toMatchObject({ code: 'INVALID_PAYLOAD', extensions: { reason } });
  });
});
