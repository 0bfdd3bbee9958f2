import type { RequestHandler } from 'express';

export interface CorsOptions {
  /** true = any origin (reflected, so credentials still work); a list = exactly those origins. */
  origin: boolean | string[];
  credentials: boolean;
  allowedHeaders: string[];
  exposedHeaders: string[];
  maxAgeSeconds: number;
}

const METHODS = 'GET,POST,PATCH,PUT,DELETE,SEARCH,OPTIONS';

export interface CorsDecision {
  /** Response headers as a flat name/value list (always `Vary: Origin`). */
  headers: string[];
  /** A preflight: answer 204 with these headers, go no further. */
  preflight: boolean;
}

/**
 * CORS for browser clients; cookie mode needs `credentials`, so the allowed origin is echoed, never `*`.
 * One decision per request, shared by the express middleware and the proxy's front door.
 */
export function corsPolicy(opts: CorsOptions): (method: string, headers: import('node:http').IncomingHttpHeaders) => CorsDecision {
  const allowed = (origin: string) => opts.origin === true || (Array.isArray(opts.origin) && opts.origin.includes(origin));
  const exposed = opts.exposedHeaders.join(', ');
  const allowedHeaders = opts.allowedHeaders.join(', ');
  const maxAge = String(opts.maxAgeSeconds);
  return (method, h) => {
    const origin = h.origin;
    const out = ['Vary', 'Origin'];
    const ok = typeof origin === 'string' && allowed(origin);
    if (ok) {
      out.push('Access-Control-Allow-Origin', origin);
      if (opts.credentials) out.push('Access-Control-Allow-Credentials', 'true');
      if (exposed) out.push('Access-Control-Expose-Headers', exposed);
    }
    const preflight = method === 'OPTIONS' && !!h['access-control-request-method'];
    if (preflight && ok) {
      out.push('Access-Control-Allow-Methods', METHODS);
      const requested = h['access-control-request-headers'];
      out.push('Access-Control-Allow-Headers', opts.origin === true && requested ? requested : allowedHeaders);
      out.push('Access-Control-Max-Age', maxAge);
    }
    return { headers: out, preflight };
  };
}

export function cors(opts: CorsOptions): RequestHandler {
  const policy = corsPolicy(opts);
  return (req, res, next) => {
    const { headers, preflight } = policy(req.method, req.headers);
    res.vary('Origin');
    for (let i = 2; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
    if (preflight) {
      res.status(204).end();
      return;
    }
    next();
  };
}
