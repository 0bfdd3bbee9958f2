import type { RequestHandler } from 'express';

/**
 * Headers every response gets (a service's own value wins when it sets one): no MIME sniffing, never framed,
 * no referrer leaks, and HSTS when the public URL is https. As a flat name/value list.
 */
export function securityHeaderList({ hsts }: { hsts: boolean }): string[] {
  const out = [
    'X-Content-Type-Options',
    'nosniff',
    'X-Frame-Options',
    'DENY',
    'Content-Security-Policy',
    "frame-ancestors 'none'",
    'Referrer-Policy',
    'no-referrer',
    'Cross-Origin-Opener-Policy',
    'same-origin',
  ];
  if (hsts) out.push('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  return out;
}

export function securityHeaders(opts: { hsts: boolean }): RequestHandler {
  const list = securityHeaderList(opts);
  return (_req, res, next) => {
    for (let i = 0; i < list.length; i += 2) res.setHeader(list[i], list[i + 1]);
    next();
  };
}
