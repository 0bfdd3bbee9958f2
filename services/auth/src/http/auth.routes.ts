import { Router } from 'express';
import { loginRequestSchema, passwordRequestSchema, passwordResetSchema, refreshRequestSchema } from '@vellum/contracts';
import { route, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { loginOperation, logoutOperation, passwordRequestOperation, passwordResetOperation, refreshOperation } from './auth-operations';

export function authRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/auth/.well-known/jwks.json', 'public', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(ctx.keys.jwks);
  });
  route(r, 'post', '/auth/login', 'public', { body: loginRequestSchema }, async (req, res) => {
    res.json({ data: await loginOperation(ctx, req, res, req.body) });
  });
  route(r, 'post', '/auth/refresh', 'public', { body: refreshRequestSchema }, async (req, res) => {
    res.json({ data: await refreshOperation(ctx, req, res, req.body) });
  });
  route(r, 'post', '/auth/logout', 'public', { body: refreshRequestSchema }, async (req, res) => {
    await logoutOperation(ctx, req, res, req.body);
    res.status(204).end();
  });
  route(r, 'post', '/auth/password/request', 'public', { body: passwordRequestSchema }, async (req, res) => {
    await passwordRequestOperation(ctx, req.body);
    res.status(204).end();
  });
  route(r, 'post', '/auth/password/reset', 'public', { body: passwordResetSchema }, async (req, res) => {
    await passwordResetOperation(ctx, req, req.body);
    res.status(204).end();
  });
  return r;
}
