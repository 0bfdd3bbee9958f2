import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import { errors, type AppError } from '@vellum/errors';
import type { LocalServices } from '@vellum/http';
import { handOff } from './local-handoff';
import { responseHeaderList, upstreamRawHeaders, type ForwardContext } from './forward-headers';
import type { Replica, UpstreamPool } from './upstream-pool';

interface ProxyOptions {
  /** Request body limit in bytes (413 above it). */
  bodyLimit: number;
  /** The upstream pools' timeouts, for the 503 reasons (the pools enforce them). */
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Called for every failed upstream attempt (metrics, logs). */
  onUpstreamError?: (service: string, reason: string, replica: string, requestId: string) => void;
  /** The embedded topology: replicas in this process get the request handed over (local-handoff.ts), no socket. */
  local?: LocalServices;
}

/** One proxied request: what the front door worked out before handing it over. */
export interface ProxyCall extends ForwardContext {
  /** The gateway's own response headers (flat name/value list), added unless the upstream sets them. */
  responseHeaders: string[];
  /** Answers the caller with the error envelope (nothing has been written yet when it is called). */
  fail(err: AppError): void;
}

export type Proxy = (req: IncomingMessage, res: ServerResponse, call: ProxyCall) => void;

type Kind = 'connect' | 'timeout' | 'reset' | 'too-large';

/** Errors raised before the request reached the upstream: safe to send elsewhere. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Methods a client may safely repeat (RFC 9110 §9.2.2), SEARCH included. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'SEARCH']);

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

class TooLarge extends Error {}

/**
 * A request body declared (Content-Length) up to this size is read whole before the upstream call and sent with it
 * in one write, and again on a retry; larger or chunked bodies stream with back-pressure.
 */
const BUFFERED_BODY_MAX = 64 * 1024;

/** Counts request bytes while they stream; more than `limit` fails the upstream call (→ 413). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > limit) cb(new TooLarge('request body too large'));
      else cb(null, chunk);
    },
  });
}

/**
 * Reverse-proxy a request to one replica of `pool` (its undici connection pool), streaming both bodies with
 * back-pressure. The request body starts flowing only once a connection is up, so a failed connect leaves it
 * untouched and the request can go to another replica (once). Upstream down or silent → 503
 * SERVICE_UNAVAILABLE within the configured timeouts.
 */
export function createProxy(pool: UpstreamPool, opts: ProxyOptions): Proxy {
  return (req, res, call) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > opts.bodyLimit) return call.fail(errors.contentTooLarge());
    new ProxiedRequest(pool, opts, req, res, call).attempt();
  };
}

/**
 * One proxied request and its attempts; it is the undici dispatch handler of the current attempt. A class rather
 * than closures: the per-request work runs under tsx, whose keepNames transform gives every named closure an
 * Object.defineProperty call each time it is created.
 */
class ProxiedRequest implements Dispatcher.DispatchHandler {
  private readonly method: string;
  private readonly withBody: boolean;
  /** Host first (the replica's), then the rest: built once, shared by a retry. */
  private readonly forwarded: string[];
  private readonly tried = new Set<Replica>();
  private bodyStarted = false;
  private tooLarge = false;
  private done = false;
  private attempts = 0;
  // The current attempt.
  private replica: Replica | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private body: PassThrough | undefined;
  /** The whole body, when it was small enough to read first (BUFFERED_BODY_MAX). */
  private buffered: Buffer | undefined;
  private started = false;
  private responded = false;

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
      if (!res.writableFinished && !this.done) {
        this.done = true;
        this.controller?.abort(new Error('client closed the connection'));
      }
    });
  }

  attempt(): void {
    this.attempts++;
    const replica = this.pool.pick(this.tried);
    if (!replica) return this.fail('connect', 'no replica configured');
    this.tried.add(replica);
    this.replica = replica;
    this.started = this.responded = false;
    this.controller = undefined;
    const { url } = replica;
    this.forwarded[1] = url.host;
    const local = url.pathname === '/' ? this.opts.local?.get(url.origin) : undefined;
    if (local) return this.handOff(local);
    if (this.withBody && !this.buffered && !this.bodyStarted && this.smallBody()) return this.readBody(replica);
    this.dispatch(replica);
  }

  private smallBody(): boolean {
    const declared = this.req.headers['content-length'];
    return declared !== undefined && this.req.headers['transfer-encoding'] === undefined && Number(declared) <= BUFFERED_BODY_MAX;
  }

  /** Reads the (small) body whole, then makes the call; a caller gone meanwhile is marked done by 'close'. */
  private readBody(replica: Replica): void {
    const chunks: Buffer[] = [];
    this.req.on('data', (c: Buffer) => chunks.push(c));
    this.req.once('end', () => {
      if (this.done) return;
      this.buffered = Buffer.concat(chunks);
      this.dispatch(replica);
    });
  }

  private dispatch(replica: Replica): void {
    const { url } = replica;
    // A fresh body stream per attempt: undici destroys the body of a failed attempt, never the caller's request.
    this.body = this.withBody && !this.buffered && !this.bodyStarted ? new PassThrough() : undefined;
    const body = this.buffered ?? this.body;
    replica.client.dispatch(
      {
        path: (url.pathname === '/' ? '' : url.pathname) + this.req.url,
        method: this.method,
        headers: this.forwarded,
        body: body ?? null,
        // undici closes the connection after a body sent with a method it does not know to take one (SEARCH,
        // DELETE, …): every SEARCH opened a new connection to the service. Ours parse every body they are sent.
        ...(body ? { reset: false } : {}),
      },
      this,
    );
  }

  /** The in-process replica: the same request and response objects, no socket (see local-handoff.ts). */
  private handOff(local: NonNullable<ReturnType<LocalServices['get']>>): void {
    this.done = true;
    handOff(local, this.req, this.res, {
      headers: this.forwarded,
      responseHeaders: this.call.responseHeaders,
      timeoutMs: this.opts.responseTimeoutMs,
      fail: (kind, reason) => {
        this.opts.onUpstreamError?.(this.pool.service, kind, this.replica!.url.origin, this.call.requestId);
        if (kind === 'timeout') this.call.fail(errors.serviceUnavailable(this.pool.service, reason));
        else this.call.fail(errors.internal());
      },
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.done) return controller.abort(new Error('client closed the connection'));
    this.started = true;
    this.pool.markUp(this.replica!);
    if (this.body && !this.bodyStarted) {
      this.bodyStarted = true;
      const body = this.body;
      const limiter = byteLimit(this.opts.bodyLimit);
      limiter.on('error', (e) => {
        this.tooLarge = e instanceof TooLarge;
        body.destroy(e);
      });
      this.req.pipe(limiter).pipe(body);
    }
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[]>): void {
    if (statusCode < 200) return; // 1xx: the final answer follows
    this.responded = true;
    if (this.done) return controller.abort(new Error('client closed the connection'));
    // One writeHead with a flat list: node:http takes it as is (no per-header setHeader bookkeeping).
    this.res.writeHead(statusCode, responseHeaderList(headers, this.call.responseHeaders));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.res.write(chunk)) return;
    controller.pause();
    this.res.once('drain', () => controller.resume());
  }

  onResponseEnd(): void {
    this.done = true;
    this.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error & { code?: string }): void {
    if (this.done) return; // the caller went away: nothing to answer
    const code = err.code ?? '';
    const kind: Kind = this.tooLarge
      ? 'too-large'
      : code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
        ? 'timeout'
        : !this.started && CONNECT_CODES.has(code)
          ? 'connect'
          : 'reset';
    const { pool, replica } = this;
    this.opts.onUpstreamError?.(pool.service, kind === 'too-large' || kind === 'timeout' ? kind : code || 'error', replica!.url.origin, this.call.requestId);
    if (this.responded) {
      // Mid-body: the status line is out; cut the connection so the caller sees an incomplete answer.
      this.done = true;
      this.res.destroy();
      return;
    }
    if (kind === 'connect') pool.markDown(replica!);
    // A failed connect never reached the upstream: safe to send elsewhere (the body is still unread).
    // A reset before any answer on a bodiless idempotent request (a stale keep-alive connection): once more.
    const retryable =
      this.attempts < 3 &&
      this.tried.size < 2 &&
      !this.bodyStarted &&
      (kind === 'connect' || (kind === 'reset' && IDEMPOTENT.has(this.method) && !this.withBody));
    if (retryable && (kind !== 'connect' || pool.replicas.length > this.tried.size)) {
      if (kind !== 'connect') this.tried.delete(replica!); // the same replica is fine after a stale socket
      return this.attempt();
    }
    const ms = this.opts.responseTimeoutMs;
    const reason =
      kind === 'timeout'
        ? code === 'UND_ERR_BODY_TIMEOUT'
          ? `upstream idle for ${ms} ms`
          : `no answer within ${ms} ms`
        : code === 'UND_ERR_CONNECT_TIMEOUT'
          ? `connect timeout after ${this.opts.connectTimeoutMs} ms`
          : err.message || code || 'connection failed';
    this.fail(kind, reason);
  }

  private fail(kind: Kind, reason: string): void {
    if (this.done) return;
    this.done = true;
    if (this.res.headersSent) {
      this.res.destroy();
      return;
    }
    if (kind === 'too-large') return this.call.fail(errors.contentTooLarge());
    this.call.fail(errors.serviceUnavailable(this.pool.service, kind === 'timeout' ? reason : `upstream unreachable: ${reason}`));
  }
}
