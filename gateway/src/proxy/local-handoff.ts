import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestListener } from '@vellum/http';

/** Request fields node:http keeps only once when repeated (the rest are joined with ", ", cookies with "; "). */
const SINGLE = new Set([
  'host',
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'authorization',
  'proxy-authorization',
  'from',
  'if-modified-since',
  'if-unmodified-since',
  'max-forwards',
  'age',
  'expires',
  'etag',
  'last-modified',
  'location',
  'retry-after',
  'server',
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

interface Handoff {
  /** The upstream request headers the HTTP path would send (Host first), flat name/value list. */
  headers: string[];
  /** The gateway's own response headers; a service's own value of a header wins (`Vary` is added to). */
  responseHeaders: readonly string[];
  /** No status line from the service within this → 503 (as the HTTP path's headers timeout). */
  timeoutMs: number;
  /** Nothing sent yet: answer the caller with the error envelope. */
  fail(kind: 'timeout' | 'error', reason: string): void;
}

const noop = () => undefined;

/** What the service had set on the response, taken off before the gateway answers instead (as over HTTP). */
function clearHeaders(res: ServerResponse): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
}

/**
 * The embedded topology's proxy step without a socket: the caller's request and response go to the in-process
 * service's handler as they are, with the request headers the HTTP path would send. The gateway's own response
 * headers are set first, so a service's own value of a header replaces the gateway's, as on the HTTP path; a
 * service adds to `Vary` (express's `res.vary`, or `appendHeader`) rather than setting it, and leaves the
 * connection's headers (Connection, Keep-Alive, Transfer-Encoding) to node:http — the HTTP path would drop them.
 * Nothing of the response object is replaced: a method of node's own that node's internals call (`writeHead`,
 * `setHeader`), replaced by a function of the request, made every response of that path survive into V8's old
 * generation (longer GC pauses, a fifth more CPU: bench/history.md).
 * One serialization, no loopback hop; the service reads the body from the caller's stream (its own body limit
 * applies, the same 1 MB).
 */
export function handOff(handler: RequestListener, req: IncomingMessage, res: ServerResponse, h: Handoff): void {
  req.headers = headersFromList(h.headers);
  req.rawHeaders = h.headers;
  const own = h.responseHeaders;
  for (let i = 0; i < own.length; i += 2) {
    const name = own[i]!;
    if (name.length === 4 && name.toLowerCase() === 'vary' && res.hasHeader(name)) res.appendHeader(name, own[i + 1]!);
    else res.setHeader(name, own[i + 1]!);
  }
  const timer = setTimeout(() => {
    if (res.headersSent || res.writableEnded) return;
    clearHeaders(res);
    h.fail('timeout', `no answer within ${h.timeoutMs} ms`);
    // the service may still answer later: the answer has been sent, so its headers throw (its error handler sees
    // headers sent) and its writes fail; an error event of a late write goes to this listener, not the process
    res.on('error', noop);
  }, h.timeoutMs);
  res.once('close', () => clearTimeout(timer));
  try {
    handler(req, res);
  } catch (e) {
    clearTimeout(timer);
    if (res.headersSent) return void res.destroy();
    clearHeaders(res);
    h.fail('error', e instanceof Error ? e.message : String(e));
  }
}
