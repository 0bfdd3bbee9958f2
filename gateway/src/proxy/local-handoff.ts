import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestListener } from '@vellum/http';
import { HOP_BY_HOP } from './forward-headers';

/** Request fields node:http keeps only once when repeated (the rest are joined with ", ", cookies with "; "). */
const SINGLE = new Set([
  'host', 'content-type', 'content-length', 'user-agent', 'referer', 'authorization', 'proxy-authorization', 'from',
  'if-modified-since', 'if-unmodified-since', 'max-forwards', 'age', 'expires', 'etag', 'last-modified', 'location',
  'retry-after', 'server',
]);

/** `req.headers` as node:http would parse this flat name/value list off the wire. */
export function headersFromList(list: readonly string[]): IncomingHttpHeaders {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < list.length; i += 2) {
    const name = list[i]!.toLowerCase();
    const value = list[i + 1]!;
    const had = out[name];
    if (had === undefined) out[name] = name === 'set-cookie' ? [value] : value;
    else if (name === 'set-cookie') (had as string[]).push(value);
    else if (!SINGLE.has(name)) out[name] = `${had as string}${name === 'cookie' ? '; ' : ', '}${value}`;
  }
  return out;
}

export interface Handoff {
  /** The upstream request headers the HTTP path would send (Host first), flat name/value list. */
  headers: string[];
  /** The gateway's own response headers, added unless the service sets them (`Vary` is added to). */
  responseHeaders: readonly string[];
  /** No status line from the service within this → 503 (as the HTTP path's headers timeout). */
  timeoutMs: number;
  /** Nothing sent yet: answer the caller with the error envelope. */
  fail(kind: 'timeout' | 'error', reason: string): void;
}

const noop = () => undefined;

/**
 * The embedded topology's proxy step without a socket: the caller's request and response go to the in-process
 * service's handler as they are, with the request headers the HTTP path would send and the gateway's response
 * headers merged in as the HTTP path merges them (`responseHeaderList`) — one serialization, no loopback hop.
 * The service reads the body from the caller's stream (its own body limit applies, the same 1 MB).
 */
export function handOff(handler: RequestListener, req: IncomingMessage, res: ServerResponse, h: Handoff): void {
  req.headers = headersFromList(h.headers);
  req.rawHeaders = h.headers;
  const own = h.responseHeaders;
  const writeHead = res.writeHead;
  // every answer goes through writeHead (express: res.end → _implicitHeader → writeHead)
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    clearTimeout(timer);
    delete (res as Partial<ServerResponse>).writeHead;
    for (const name of HOP_BY_HOP) if (res.hasHeader(name)) res.removeHeader(name);
    for (let i = 0; i < own.length; i += 2) {
      const name = own[i]!;
      const lower = name.toLowerCase();
      const set = res.getHeader(lower);
      if (set === undefined) res.setHeader(name, own[i + 1]!);
      else if (lower === 'vary') res.setHeader(name, `${String(set)}, ${own[i + 1]}`);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  const timer = setTimeout(() => {
    if (res.headersSent || res.writableEnded) return;
    delete (res as Partial<ServerResponse>).writeHead;
    h.fail('timeout', `no answer within ${h.timeoutMs} ms`);
    // the service may still answer later: nothing of it reaches the caller
    Object.assign(res, { writeHead: () => res, setHeader: () => res, removeHeader: noop, write: () => true, end: () => res });
  }, h.timeoutMs);
  res.once('close', () => clearTimeout(timer));
  try {
    handler(req, res);
  } catch (e) {
    clearTimeout(timer);
    delete (res as Partial<ServerResponse>).writeHead;
    if (!res.headersSent) h.fail('error', e instanceof Error ? e.message : String(e));
    else res.destroy();
  }
}
