import type { ServerResponse } from 'node:http';
import { AppError, normalizeError, toErrorBody, type ErrorLogger } from '@vellum/errors';

/**
 * The contract's error envelope on a bare node:http response, exactly as @vellum/errors' errorMiddleware answers
 * it (status, extra headers such as Retry-After, JSON body, request id on 500s, logging), plus the gateway's
 * own response headers (`headers`: flat name/value list).
 */
export function sendError(
  res: ServerResponse,
  err: unknown,
  ctx: { requestId: string; method: string; url: string; headers: string[]; logger: ErrorLogger },
): void {
  const appError = normalizeError(err);
  if (appError.code === 'INTERNAL_SERVER_ERROR' && !(err instanceof AppError)) {
    ctx.logger.error({ err, requestId: ctx.requestId, method: ctx.method, url: ctx.url }, 'unhandled error');
  } else if (appError.status >= 500) {
    ctx.logger.warn({ code: appError.code, extensions: appError.extensions, requestId: ctx.requestId }, appError.message);
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify(toErrorBody(appError, ctx.requestId));
  const out = ctx.headers.slice();
  for (const [k, v] of Object.entries(appError.headers)) out.push(k, v);
  out.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(body)));
  res.writeHead(appError.status, out);
  res.end(ctx.method === 'HEAD' ? undefined : body);
}
