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

/** CORS for browser clients; cookie mode needs `credentials`, so the allowed origin is echoed, never `*`. */
export function cors(opts: CorsOptions): RequestHandler {
  const allowed = (origin: string) => opts.origin === true || (Array.isArray(opts.origin) && opts.origin.includes(origin));
  return (req, res, next) => {
    const origin = req.headers.origin;
    res.vary('Origin');
    const ok = typeof origin === 'string' && allowed(origin);
    if (ok) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      if (opts.credentials) res.setHeader('Access-Control-Allow-Credentials', 'true');
      if (opts.exposedHeaders.length) res.setHeader('Access-Control-Expose-Headers', opts.exposedHeaders.join(', '));
    }
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      if (ok) {
        res.setHeader('Access-Control-Allow-Methods', METHODS);
        const requested = req.headers['access-control-request-headers'];
        res.setHeader('Access-Control-Allow-Headers', opts.origin === true && requested ? requested : opts.allowedHeaders.join(', '));
        res.setHeader('Access-Control-Max-Age', String(opts.maxAgeSeconds));
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
