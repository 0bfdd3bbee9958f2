import { Router } from 'express';
import { route, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { tfaUseCase } from '../domain/tfa.use-case';
import { actorOf, body, requiredField } from './request-helpers';

/** POST /users/me/tfa/{generate,enable,disable} (contract §3 "Two-factor"). */
export function tfaRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'post', '/users/me/tfa/generate', 'authenticated', async (req, res) => {
    const password = requiredField(body(req), 'password');
    res.json({ data: await tfaUseCase.generate(ctx, req.accountability!.user!, password) });
  });
  route(r, 'post', '/users/me/tfa/enable', 'authenticated', async (req, res) => {
    const b = body(req);
    const secret = requiredField(b, 'secret');
    const otp = requiredField(b, 'otp');
    await tfaUseCase.enable(ctx, req.accountability!.user!, secret, otp, actorOf(req));
    res.status(204).end();
  });
  route(r, 'post', '/users/me/tfa/disable', 'authenticated', async (req, res) => {
    const otp = requiredField(body(req), 'otp');
    await tfaUseCase.disable(ctx, req.accountability!.user!, otp, actorOf(req));
    res.status(204).end();
  });
  return r;
}
