import { Router, type Response } from 'express';
import { loginRequestSchema, passwordRequestSchema, passwordResetSchema, refreshRequestSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { requestPasswordReset } from '../domain/password-request.use-case';
import { resetPassword } from '../domain/password-reset.use-case';
import { answerLogin, answerLogout, answerRefresh, type TokenAnswer } from '../domain/token-answers.use-case';
import { client, presented } from './request-helpers';

/** The answer's cookies on the response, its data back. */
const withCookies = (res: Response, a: TokenAnswer) => {
  if (a.setCookies.length) res.appendHeader('Set-Cookie', a.setCookies);
  return a.data;
};

export function authRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/auth/.well-known/jwks.json', 'public', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    sendJson(res, ctx.keys.jwks);
  });
  route(r, 'post', '/auth/login', 'public', { body: loginRequestSchema }, async (req, res) => {
    sendJson(res, { data: withCookies(res, await answerLogin(ctx, req.body, presented(req))) });
  });
  route(r, 'post', '/auth/refresh', 'public', { body: refreshRequestSchema }, async (req, res) => {
    sendJson(res, { data: withCookies(res, await answerRefresh(ctx, req.body, presented(req))) });
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
