import { Router } from 'express';
import { route, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import {
  loginOperation,
  logoutOperation,
  passwordRequestOperation,
  passwordResetOperation,
  refreshOperation,
} from './auth-operations';
import { body } from './request-helpers';

export function authRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'get', '/auth/.well-known/jwks.json', 'public', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(ctx.keys.jwks);
  });
  route(r, 'post', '/auth/login', 'public', async (req, res) => {
    res.json({ data: await loginOperation(ctx, req, res, body(req)) });
  });
  route(r, 'post', '/auth/refresh', 'public', async (req, res) => {
    res.json({ data: await refreshOperation(ctx, req, res, body(req)) });
  });
  route(r, 'post', '/auth/logout', 'public', async (req, res) => {
    await logoutOperation(ctx, req, res, body(req));
    res.status(204).end();
  });
  route(r, 'post', '/auth/password/request', 'public', async (req, res) => {
    await passwordRequestOperation(ctx, body(req));
    res.status(204).end();
  });
  route(r, 'post', '/auth/password/reset', 'public', async (req, res) => {
    await passwordResetOperation(ctx, req, body(req));
    res.status(204).end();
  });
  return r;
}
