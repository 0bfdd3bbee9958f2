import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import { errors } from '@vellum/errors';
import { compressedFiles } from './compressed-files';

/**
 * The admin app's policy: every script, style, image and request from this origin only (no CDN, no inline
 * script or style element), never framed, forms post only here. Styles set through the DOM (element.style)
 * are not style elements, so the app needs no 'unsafe-inline'.
 */
export const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed build assets never change under their name: cached for a year; everything else is revalidated. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

interface AdminAppOptions {
  /** The built app (apps/admin/dist): index.html and assets/. */
  dir: string;
  /** Mount path, default /admin. */
  base?: string;
}

/**
 * The admin app at /admin (access: public — the page is a static shell; every datum it shows comes from the API
 * with the caller's own session): hashed files under /admin/assets cached immutable, index.html not cached, any
 * other GET under /admin answered with index.html (the app routes in the browser). When the app is not built,
 * /admin answers 503 with the command that builds it.
 */
export function adminApp({ dir, base = '/admin' }: AdminAppOptions): Router {
  const router = express.Router();
  const csp: RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', ADMIN_CSP);
    next();
  };
  const indexFile = path.join(dir, 'index.html');
  // Built or rebuilt while the gateway runs (npm start builds first; a developer may rebuild): looked up per request.
  router.use(base, (_req, _res, next) =>
    next(existsSync(indexFile) ? undefined : errors.serviceUnavailable('admin', `the admin app is not built (${dir}): run \`npm run build -w @vellum/admin\``)),
  );
  const cacheControl = (file: string) => (file.startsWith(path.join(dir, 'assets') + path.sep) ? IMMUTABLE : REVALIDATE);
  router.use(
    base,
    csp,
    compressedFiles(path.resolve(dir), (file) => ({ 'Cache-Control': cacheControl(file) })),
    express.static(dir, {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      setHeaders: (res, file) => {
        res.setHeader('Cache-Control', cacheControl(file));
      },
    }),
  );
  // A missing hashed file is a 404 (an old tab asking for a replaced build), never the HTML shell.
  router.use(`${base}/assets`, (req, _res, next) => next(errors.routeNotFound(`${base}/assets${req.path}`)));
  const shell: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    readFile(indexFile).then((html) => {
      res.setHeader('Cache-Control', REVALIDATE);
      res.type('html').send(html);
    }, next);
  };
  router.use(base, shell);
  return router;
}
