import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type RequestHandler } from 'express';

/**
 * The reference page's policy: everything from the gateway itself, nothing inline but styles (Redoc renders
 * with styled-components), its search worker from a blob URL, no frames, no form posts, no plugins.
 */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vellum API reference</title>
</head>
<body>
<redoc spec-url="/server/specs/oas" hide-download-button="false"></redoc>
<script src="/reference/redoc.standalone.js"></script>
</body>
</html>
`;

/** Where the Redoc bundle is installed (the `redoc` package ships it prebuilt). */
function redocBundlePath(): string {
  return path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');
}

/**
 * `GET /reference`: a browsable reference of the OpenAPI document (`/server/specs/oas`), rendered by Redoc from
 * the gateway's own copy of its bundle — no CDN, no inline script — under a strict Content-Security-Policy.
 */
export function apiReference(bundlePath?: string): Router {
  let bundle: Buffer | undefined;
  const csp: RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', REFERENCE_CSP);
    next();
  };
  const router = Router();
  router.get('/reference', csp, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/html; charset=utf-8').send(PAGE);
  });
  router.get('/reference/redoc.standalone.js', csp, (_req, res) => {
    bundle ??= readFileSync(bundlePath ?? redocBundlePath());
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('text/javascript; charset=utf-8').send(bundle);
  });
  return router;
}
