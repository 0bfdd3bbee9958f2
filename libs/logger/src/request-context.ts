import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  requestId: string;
  traceparent?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Run fn with a request context; every log line and outgoing call inside it carries the request id. */
export function runWithRequestContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export const currentRequestContext = (): RequestContext | undefined => storage.getStore();
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accept a caller's id only when it is a sane token; otherwise make one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const v = Array.isArray(header) ? header[0] : header;
  return v && VALID_ID.test(v) ? v : randomUUID();
}

/** Headers to forward on outgoing HTTP calls and NATS messages. */
export function propagationHeaders(): Record<string, string> {
  const ctx = storage.getStore();
  if (!ctx) return {};
  const h: Record<string, string> = { 'x-request-id': ctx.requestId };
  if (ctx.traceparent) h.traceparent = ctx.traceparent;
  return h;
}
