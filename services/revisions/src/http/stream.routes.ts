import { Router, type RequestHandler, type Response } from 'express';
import { errors } from '@vellum/errors';
import type { Logger } from '@vellum/logger';
import { route, type RouteTable } from '@vellum/http';
import { extractAccessToken, isTokenRevoked, type AccessTokenClaims, type RevocationCheck, type TokenVerifier } from '@vellum/tokens';
import type { RecordsReader } from '../domain/records-reader';
import { liveEventText, RevisionStream, type StreamDeps, type StreamSink } from '../domain/revision-stream';

export interface StreamRouteOptions {
  authenticate: RequestHandler;
  verifier: TokenVerifier;
  isSessionRevoked?: RevocationCheck;
  /** A comment line after this long without an event, so proxies keep the idle stream open. */
  heartbeatMs: number;
  /** How often each stream's token is checked again (expiry, ended session, revoked API token). */
  authCheckMs?: number;
  /** A client this far behind (bytes not yet taken by its socket) is cut off: it resumes with Last-Event-ID. */
  maxBufferedBytes?: number;
  logger: Pick<Logger, 'warn'>;
}

/** The open streams of an app: what `close` ends when the service stops. */
export interface StreamRegistry {
  readonly size: number;
  closeAll(): void;
}

interface Open {
  res: Response;
  lastWrite: number;
  writable(): boolean;
  check(): Promise<boolean>;
  end(event?: string): void;
}

/** `?since=` or `Last-Event-ID` (the header wins: it is what EventSource sends when it reconnects). */
function sinceOf(header: string | undefined, query: unknown): number | undefined {
  const raw = header ?? (typeof query === 'string' ? query : undefined);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) throw errors.invalidQuery('"since" (or Last-Event-ID) must be a revision id.');
  return Number(raw);
}

/**
 * `GET /revisions/stream`: server-sent events of the revisions the caller may read, with `/revisions`' `filter` and
 * `fields`; each event's id is the revision id. Resumes after `Last-Event-ID` / `?since=`. Ends with `auth_expired`
 * when the token expires, its session ends or its API token is revoked.
 */
export function streamRoutes(deps: StreamDeps & { reader: RecordsReader }, o: StreamRouteOptions): Router & RouteTable & { streams: StreamRegistry } {
  const router = Router() as Router & RouteTable;
  const open = new Set<Open>();
  const tickMs = Math.min(o.authCheckMs ?? 1000, o.heartbeatMs);
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = Date.now();
    for (const s of open) {
      void s.check().then((ok) => (ok ? undefined : s.end('auth_expired')));
      if (now - s.lastWrite >= o.heartbeatMs && s.writable()) {
        s.res.write(':\n\n');
        s.lastWrite = now;
      }
    }
  };

  route(router, 'get', '/revisions/stream', 'public', { before: [o.authenticate] }, async (req, res) => {
    const acc = req.accountability!;
    const since = sinceOf(req.get('last-event-id'), req.query.since);
    const found = extractAccessToken(req);
    const claims: AccessTokenClaims | undefined = found ? await o.verifier.verify(found.token) : undefined;
    const query = deps.reader.parse({ filter: req.query.filter, fields: req.query.fields });
    const stream = new RevisionStream(deps, acc, query, since);
    const opened = await stream.open();

    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'X-Accel-Buffering': 'no' });
    res.write('retry: 1000\n\n');
    let closed = false;
    const entry: Open = {
      res,
      lastWrite: Date.now(),
      writable: () => !closed && !res.writableEnded && !res.destroyed,
      check: async () => {
        if (!claims || closed) return true;
        if (Date.now() >= claims.exp * 1000) return false;
        if (o.isSessionRevoked && (await isTokenRevoked(claims, o.isSessionRevoked))) return false;
        if (claims.api_token)
          return o.verifier.verify(found!.token).then(
            () => true,
            () => false,
          );
        return true;
      },
      end: (event) => {
        if (closed) return;
        if (event && entry.writable()) res.write(`event: ${event}\ndata: {}\n\n`);
        closed = true;
        if (!res.writableEnded && !res.destroyed) res.end();
      },
    };
    const write = (text: string | Buffer): boolean => {
      if (!entry.writable()) return false;
      entry.lastWrite = Date.now();
      const ok = res.write(text);
      if (res.writableLength > (o.maxBufferedBytes ?? 8 * 1024 * 1024)) entry.end();
      return ok;
    };
    const sink: StreamSink = {
      revision: (id, json) => write(liveEventText(id, json)),
      text: (chunk) => void write(chunk),
      reset: (earliest) => void write(`id: ${earliest - 1}\nevent: reset\ndata: ${JSON.stringify({ earliest })}\n\n`),
      drained: () => new Promise((r) => (closed ? r() : res.once('drain', r).once('close', r))),
      get closed() {
        return closed;
      },
    };
    res.once('close', () => {
      closed = true;
      open.delete(entry);
      stream.close();
      if (open.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    });
    open.add(entry);
    timer ??= setInterval(tick, tickMs);
    timer.unref();
    // an expiry before the first check must not be missed
    if (!(await entry.check())) return entry.end('auth_expired');
    try {
      await stream.run(opened, sink);
    } catch (err) {
      // a failed catch-up read: the client reconnects with the last id it has
      o.logger.warn({ err }, 'a revision stream failed; the client resumes from its last event');
      entry.end();
    }
  });

  const streams: StreamRegistry = {
    get size() {
      return open.size;
    },
    closeAll: () => {
      for (const s of [...open]) s.end();
    },
  };
  return Object.assign(router, { streams });
}
