import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { ZodType, output } from 'zod';
import { errors } from '@vellum/errors';
import { parseBody } from './parse-body';

/** Every route declares who may call it; "public" is an explicit choice, never the default. */
export type Access = 'public' | 'authenticated' | 'admin';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete' | 'search';

export type AsyncHandler = (req: Request, res: Response, next: NextFunction) => unknown;

/** A handler whose `req.body` is the parsed body of the route's schema. */
export type BodyHandler<B> = (req: Request<Request['params'], unknown, B>, res: Response, next: NextFunction) => unknown;

/** What a route declares besides its access rule. */
export interface RouteOptions<S extends ZodType = ZodType> {
  /**
   * The JSON body's schema (from `@vellum/contracts`): the body is validated with it before the handlers run
   * (400 INVALID_PAYLOAD) and `req.body` becomes the parsed value. The gateway documents the same schema.
   */
  body?: S;
  /** Middleware the route needs before its access rule (authentication, a rate limit): declared here, nowhere else. */
  before?: RequestHandler[];
}

export interface RouteEntry {
  method: Method;
  path: string;
  access: Access;
  /** Present only on routes that declare a body schema. */
  body?: ZodType;
}

export interface RouteTable {
  routes: RouteEntry[];
}

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

/** Validates `req.body` with the route's schema and replaces it with the parsed value. */
export function validateBody(schema: ZodType): RequestHandler {
  return (req, _res, next) => {
    req.body = parseBody(schema, req.body);
    next();
  };
}

/**
 * Register a route with its access rule (and, optionally, its body schema). Handlers may be async; their
 * rejections reach the error middleware (express 5 does that natively). The table records every route, its
 * access rule and its body schema, so tests can assert that none is undeclared and that the OpenAPI document
 * describes the schema the route validates with. Returns the handlers registered, in order.
 */
export function route<S extends ZodType>(
  router: Router & Partial<RouteTable>,
  method: Method,
  path: string,
  access: Access,
  options: RouteOptions<S>,
  ...handlers: BodyHandler<output<S>>[]
): AsyncHandler[];
export function route(router: Router & Partial<RouteTable>, method: Method, path: string, access: Access, ...handlers: AsyncHandler[]): AsyncHandler[];
export function route(router: Router & Partial<RouteTable>, method: Method, path: string, access: Access, ...rest: unknown[]): AsyncHandler[] {
  const options = (typeof rest[0] === 'function' ? {} : rest.shift()) as RouteOptions;
  const handlers = rest as AsyncHandler[];
  (router.routes ??= []).push({ method, path, access, ...(options.body ? { body: options.body } : {}) });
  const register = (router as unknown as Record<string, (p: string, ...h: unknown[]) => void>)[method].bind(router);
  const chain: AsyncHandler[] = [...(options.before ?? []), requireAccess(access), ...(options.body ? [validateBody(options.body)] : []), ...handlers];
  register(path, ...chain);
  return chain;
}
