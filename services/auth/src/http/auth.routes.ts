import { Router, type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import { loginRequestSchema, passwordRequestSchema, passwordResetSchema, refreshRequestSchema } from '@vellum/contracts';
import { fastRoute, route, sendJson, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { requestPasswordReset } from '../domain/password-request.use-case';
import { resetPassword } from '../domain/password-reset.use-case';
import { answerLogin, answerLogout, answerRefresh, type TokenAnswer } from '../domain/token-answers.use-case';
import { client, presented } from './request-helpers';

/** The answer's cookies on the response (node's own API: express's and the bare fast lane's alike), its data back. */
const withCookies = (res: Response, a: TokenAnswer) => {
  if (a.setCookies.length) res.appendHeader('Set-Cookie', a.setCookies);
  return a.data;
};

/**
 * What the app runs for POST /auth/login besides its route, for its fast lane to run too: `before` (the stall's
 * start mark, the per-address rate limit) and `after` (an error waits out the stall).
 */
export interface LoginLane {
  app: Express;
  before: RequestHandler[];
  after: ErrorRequestHandler[];
}

export function authRoutes(ctx: AuthContext, lane: LoginLane): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/auth/.well-known/jwks.json', 'public', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(ctx.keys.jwks);
  });
  // The app's fast lane answers logins (on bare node:http when listening: node's response API only, no express helpers).
  const { app, before, after } = lane;
  fastRoute(app, { router: r, method: 'post', path: '/auth/login', access: 'public', body: loginRequestSchema, before, after }, async (req, res) => {
    sendJson(res, { data: withCookies(res, await answerLogin(ctx, req.body, presented(req))) });
  });
  route(r, 'post', '/auth/refresh', 'public', { body: refreshRequestSchema }, async (req, res) => {
    res.json({ data: withCookies(res, await answerRefresh(ctx, req.body, presented(req))) });
  });
  route(r, 'post', '/auth/logout', 'public', { body: refreshRequestSchema }, async (req, res) => {
    withCookies(res, await answerLogout(ctx, req.body, presented(req)));
    res.status(204).end();
  });
  route(r, 'post', '/auth/password/request', 'public', { body: passwordRequestSchema }, async (req, res) => {
    await requestPasswordReset(ctx, req.body.email, req.body.reset_url ?? undefined);
    res.status(204).end();
  });
  route(r, 'post', '/auth/password/reset', 'public', { body: passwordResetSchema }, async (req, res) => {
    await resetPassword(ctx, req.body.token, req.body.password, client(req));
    res.status(204).end();
  });
  return r;
}
