import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { errors } from '@vellum/errors';

/** Every route declares who may call it; "public" is an explicit choice, never the default. */
export type Access = 'public' | 'authenticated' | 'admin';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete' | 'search';

export type AsyncHandler = (req: Request, res: Response, next: NextFunction) => unknown;

/** Rejects callers that do not meet the rule (403 FORBIDDEN, as the contract answers for missing permission). */
export function requireAccess(access: Access): RequestHandler {
  return (req, _res, next) => {
    const a = req.accountability;
    if (access === 'public') return next();
    if (!a?.user) return next(errors.forbidden());
    if (access === 'admin' && !a.admin) return next(errors.forbidden());
    next();
  };
}

export interface RouteTable {
  routes: { method: Method; path: string; access: Access }[];
}

/**
 * Register a route with its access rule. Handlers may be async; their rejections reach the error middleware
 * (express 5 does that natively). The table records every route so tests can assert that none is undeclared.
 */
export function route(router: Router & Partial<RouteTable>, method: Method, path: string, access: Access, ...handlers: AsyncHandler[]) {
  (router.routes ??= []).push({ method, path, access });
  const register = (router as unknown as Record<string, (p: string, ...h: unknown[]) => void>)[method].bind(router);
  register(path, requireAccess(access), ...handlers);
}
