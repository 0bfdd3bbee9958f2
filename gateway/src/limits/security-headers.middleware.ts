import type { RequestHandler } from 'express';

/**
 * Headers every response gets (a service's own value wins when it sets one): no MIME sniffing, never framed,
 * no referrer leaks, and HSTS when the public URL is https.
 */
export function securityHeaders({ hsts }: { hsts: boolean }): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (hsts) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}
