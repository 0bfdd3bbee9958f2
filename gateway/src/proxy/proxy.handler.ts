import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { errors, type AppError } from '@vellum/errors';
import { responseRawHeaders, upstreamRawHeaders, type ForwardContext } from './forward-headers';
import type { Replica, UpstreamPool } from './upstream-pool';

export interface ProxyOptions {
  connectTimeoutMs: number;
  /** Until the upstream's status line + headers, and then the idle limit while its body streams. */
  responseTimeoutMs: number;
  /** Request body limit in bytes (413 above it). */
  bodyLimit: number;
  /** Called for every failed upstream attempt (metrics, logs). */
  onUpstreamError?: (service: string, reason: string, replica: string, requestId: string) => void;
}

/** One proxied request: what the front door worked out before handing it over. */
export interface ProxyCall extends ForwardContext {
  /** The gateway's own response headers (flat name/value list), added unless the upstream sets them. */
  responseHeaders: string[];
  /** Answers the caller with the error envelope (nothing has been written yet when it is called). */
  fail(err: AppError): void;
}

export type Proxy = (req: IncomingMessage, res: ServerResponse, call: ProxyCall) => void;

class ProxyError extends Error {
  constructor(
    readonly kind: 'connect' | 'timeout' | 'reset' | 'too-large',
    message: string,
  ) {
    super(message);
  }
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET']);
/** Methods a client may safely repeat (RFC 9110 §9.2.2), SEARCH included. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'SEARCH']);

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** Counts request bytes while they stream; more than `limit` fails the upstream call (→ 413). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > limit) cb(new ProxyError('too-large', 'request body too large'));
      else cb(null, chunk);
    },
  });
}

/**
 * Reverse-proxy a request to one replica of `pool` on bare node:http objects, streaming both bodies. The request
 * body is piped only once the TCP connection is up, so a failed connect leaves it untouched and the request can
 * go to another replica (once). Upstream down or silent → 503 SERVICE_UNAVAILABLE within the configured timeouts.
 */
export function createProxy(pool: UpstreamPool, opts: ProxyOptions): Proxy {
  return (req, res, call) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > opts.bodyLimit) return call.fail(errors.contentTooLarge());

    const method = req.method ?? 'GET';
    const tried = new Set<Replica>();
    const withBody = hasBody(req);
    // Host first (the replica's), then the rest: built once, shared by a retry.
    const forwarded = upstreamRawHeaders(req, call, ['host', '']);
    let bodyStarted = false;
    let done = false;
    let attempts = 0;

    const fail = (err: unknown) => {
      if (done) return;
      done = true;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const e = err as ProxyError;
      if (e.kind === 'too-large') return call.fail(errors.contentTooLarge());
      const reason = e.kind === 'timeout' ? e.message : `upstream unreachable: ${e.message}`;
      call.fail(errors.serviceUnavailable(pool.service, reason));
    };

    const attempt = () => {
      attempts++;
      const replica = pool.pick(tried);
      if (!replica) return fail(new ProxyError('connect', 'no replica configured'));
      tried.add(replica);
      const { url } = replica;
      const base = url.pathname === '/' ? '' : url.pathname;
      forwarded[1] = url.host;
      const upstreamReq = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        method,
        path: base + req.url,
        headers: forwarded,
        agent: replica.agent,
      });
      let connectTimer: NodeJS.Timeout | undefined;
      let responseTimer: NodeJS.Timeout | undefined;
      let connected = false;
      let responded = false;
      let reusedSocket = false;
      const clearTimers = () => {
        clearTimeout(connectTimer);
        clearTimeout(responseTimer);
      };

      const onConnected = () => {
        clearTimeout(connectTimer);
        connected = true;
        pool.markUp(replica);
        responseTimer = setTimeout(
          () => upstreamReq.destroy(new ProxyError('timeout', `no answer within ${opts.responseTimeoutMs} ms`)),
          opts.responseTimeoutMs,
        );
        if (withBody && !bodyStarted) {
          bodyStarted = true;
          const limiter = byteLimit(opts.bodyLimit);
          limiter.on('error', (e) => upstreamReq.destroy(e));
          req.pipe(limiter).pipe(upstreamReq);
        }
      };

      upstreamReq.on('socket', (socket) => {
        if (socket.connecting) {
          connectTimer = setTimeout(
            () => upstreamReq.destroy(new ProxyError('connect', `connect timeout after ${opts.connectTimeoutMs} ms`)),
            opts.connectTimeoutMs,
          );
          socket.once('connect', onConnected);
        } else {
          reusedSocket = true;
          onConnected();
        }
      });
      if (!withBody) upstreamReq.end();

      upstreamReq.on('error', (err: Error & { code?: string }) => {
        clearTimers();
        if (responded || done) {
          if (!done) fail(err);
          return;
        }
        const kind = err instanceof ProxyError ? err.kind : !connected && CONNECT_CODES.has(err.code ?? '') ? 'connect' : 'reset';
        opts.onUpstreamError?.(pool.service, err instanceof ProxyError ? err.kind : (err.code ?? 'error'), url.origin, call.requestId);
        if (kind === 'too-large' || kind === 'timeout') return fail(err);
        if (kind === 'connect') pool.markDown(replica);
        // A failed connect never reached the upstream: safe to send elsewhere (the body is still unread).
        // A reset on a reused keep-alive socket before any answer: retry only bodiless idempotent requests.
        const retryable =
          attempts < 3 &&
          tried.size < 2 &&
          !bodyStarted &&
          (kind === 'connect' || (reusedSocket && IDEMPOTENT.has(method) && !withBody));
        if (retryable && (kind !== 'connect' || pool.replicas.length > tried.size)) {
          if (kind !== 'connect') tried.delete(replica); // the same replica is fine after a stale socket
          return attempt();
        }
        fail(new ProxyError(kind === 'connect' ? 'connect' : 'reset', err.message || err.code || 'connection failed'));
      });

      upstreamReq.on('response', (up) => {
        clearTimers();
        responded = true;
        if (done) {
          up.resume();
          return;
        }
        // One writeHead with a flat list: node:http takes it as is (no per-header setHeader bookkeeping).
        res.writeHead(up.statusCode ?? 502, responseRawHeaders(up, call.responseHeaders));
        // Idle limit while streaming: an upstream that stops sending mid-body is cut off.
        upstreamReq.setTimeout(opts.responseTimeoutMs, () =>
          upstreamReq.destroy(new ProxyError('timeout', `upstream idle for ${opts.responseTimeoutMs} ms`)),
        );
        // pipe() rather than stream.pipeline(): same back-pressure, measurably less per-request work.
        up.on('error', () => {
          if (!res.writableEnded) res.destroy();
        });
        up.on('end', () => (done = true));
        up.pipe(res);
      });

      res.once('close', () => {
        // The caller went away: stop the upstream work too.
        if (!res.writableFinished) upstreamReq.destroy();
      });
    };
    attempt();
  };
}
