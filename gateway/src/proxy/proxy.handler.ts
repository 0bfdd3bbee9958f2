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
    new ProxiedRequest(pool, opts, req, res, call).attempt();
  };
}

/**
 * One proxied request and its attempts. A class rather than closures: the per-request work runs under tsx, whose
 * keepNames transform gives every named closure an Object.defineProperty call each time it is created.
 */
class ProxiedRequest {
  private readonly method: string;
  private readonly withBody: boolean;
  /** Host first (the replica's), then the rest: built once, shared by a retry. */
  private readonly forwarded: string[];
  private readonly tried = new Set<Replica>();
  private bodyStarted = false;
  private done = false;
  private attempts = 0;
  // The current attempt.
  private upstreamReq: http.ClientRequest | undefined;
  private replica: Replica | undefined;
  private connectTimer: NodeJS.Timeout | undefined;
  private responseTimer: NodeJS.Timeout | undefined;
  private connected = false;
  private responded = false;
  private reusedSocket = false;
  private streaming = false;

  constructor(
    private readonly pool: UpstreamPool,
    private readonly opts: ProxyOptions,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly call: ProxyCall,
  ) {
    this.method = req.method ?? 'GET';
    this.withBody = hasBody(req);
    this.forwarded = upstreamRawHeaders(req, call, ['host', '']);
    res.once('close', () => {
      // The caller went away: stop the upstream work too.
      if (!res.writableFinished && this.upstreamReq) {
        this.clearTimers();
        this.upstreamReq.destroy();
      }
    });
  }

  attempt(): void {
    this.attempts++;
    const replica = this.pool.pick(this.tried);
    if (!replica) return this.fail(new ProxyError('connect', 'no replica configured'));
    this.tried.add(replica);
    this.replica = replica;
    this.connected = this.responded = this.reusedSocket = this.streaming = false;
    const { url } = replica;
    this.forwarded[1] = url.host;
    const upstreamReq = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port,
      method: this.method,
      path: (url.pathname === '/' ? '' : url.pathname) + this.req.url,
      headers: this.forwarded,
      agent: replica.agent,
    });
    this.upstreamReq = upstreamReq;
    upstreamReq.on('socket', (socket) => {
      if (upstreamReq !== this.upstreamReq) return;
      if (socket.connecting) {
        this.connectTimer = setTimeout(
          () => upstreamReq.destroy(new ProxyError('connect', `connect timeout after ${this.opts.connectTimeoutMs} ms`)),
          this.opts.connectTimeoutMs,
        );
        socket.once('connect', () => this.onConnected(upstreamReq));
      } else {
        this.reusedSocket = true;
        this.onConnected(upstreamReq);
      }
    });
    upstreamReq.on('error', (err: Error & { code?: string }) => this.onError(upstreamReq, err));
    upstreamReq.on('response', (up) => this.onResponse(upstreamReq, up));
    if (!this.withBody) upstreamReq.end();
  }

  private onConnected(upstreamReq: http.ClientRequest): void {
    if (upstreamReq !== this.upstreamReq) return;
    clearTimeout(this.connectTimer);
    this.connected = true;
    this.pool.markUp(this.replica!);
    // One timer: until the status line and headers, then (refreshed by every body chunk) the idle limit.
    this.responseTimer = setTimeout(() => {
      const ms = this.opts.responseTimeoutMs;
      upstreamReq.destroy(new ProxyError('timeout', this.streaming ? `upstream idle for ${ms} ms` : `no answer within ${ms} ms`));
    }, this.opts.responseTimeoutMs);
    if (this.withBody && !this.bodyStarted) {
      this.bodyStarted = true;
      const limiter = byteLimit(this.opts.bodyLimit);
      limiter.on('error', (e) => upstreamReq.destroy(e));
      this.req.pipe(limiter).pipe(upstreamReq);
    }
  }

  private onError(upstreamReq: http.ClientRequest, err: Error & { code?: string }): void {
    if (upstreamReq !== this.upstreamReq) return;
    this.clearTimers();
    if (this.responded || this.done) {
      if (!this.done) this.fail(err);
      return;
    }
    const { pool, replica } = this;
    const kind = err instanceof ProxyError ? err.kind : !this.connected && CONNECT_CODES.has(err.code ?? '') ? 'connect' : 'reset';
    this.opts.onUpstreamError?.(pool.service, err instanceof ProxyError ? err.kind : (err.code ?? 'error'), replica!.url.origin, this.call.requestId);
    if (kind === 'too-large' || kind === 'timeout') return this.fail(err);
    if (kind === 'connect') pool.markDown(replica!);
    // A failed connect never reached the upstream: safe to send elsewhere (the body is still unread).
    // A reset on a reused keep-alive socket before any answer: retry only bodiless idempotent requests.
    const retryable =
      this.attempts < 3 &&
      this.tried.size < 2 &&
      !this.bodyStarted &&
      (kind === 'connect' || (this.reusedSocket && IDEMPOTENT.has(this.method) && !this.withBody));
    if (retryable && (kind !== 'connect' || pool.replicas.length > this.tried.size)) {
      if (kind !== 'connect') this.tried.delete(replica!); // the same replica is fine after a stale socket
      return this.attempt();
    }
    this.fail(new ProxyError(kind === 'connect' ? 'connect' : 'reset', err.message || err.code || 'connection failed'));
  }

  private onResponse(upstreamReq: http.ClientRequest, up: IncomingMessage): void {
    if (upstreamReq !== this.upstreamReq) {
      up.resume(); // a superseded attempt
      return;
    }
    clearTimeout(this.connectTimer);
    this.responded = true;
    if (this.done) {
      clearTimeout(this.responseTimer);
      up.resume();
      return;
    }
    const res = this.res;
    // One writeHead with a flat list: node:http takes it as is (no per-header setHeader bookkeeping).
    res.writeHead(up.statusCode ?? 502, responseRawHeaders(up, this.call.responseHeaders));
    // Idle limit while streaming: an upstream that stops sending mid-body is cut off.
    this.streaming = true;
    this.responseTimer?.refresh();
    up.on('data', () => this.responseTimer?.refresh());
    // pipe() rather than stream.pipeline(): same back-pressure, measurably less per-request work.
    up.on('error', () => {
      clearTimeout(this.responseTimer);
      if (!res.writableEnded) res.destroy();
    });
    up.on('end', () => {
      clearTimeout(this.responseTimer);
      this.done = true;
    });
    up.pipe(res);
  }

  private clearTimers(): void {
    clearTimeout(this.connectTimer);
    clearTimeout(this.responseTimer);
  }

  private fail(err: unknown): void {
    if (this.done) return;
    this.done = true;
    if (this.res.headersSent) {
      this.res.destroy();
      return;
    }
    const e = err as ProxyError;
    if (e.kind === 'too-large') return this.call.fail(errors.contentTooLarge());
    const reason = e.kind === 'timeout' ? e.message : `upstream unreachable: ${e.message}`;
    this.call.fail(errors.serviceUnavailable(this.pool.service, reason));
  }
}
