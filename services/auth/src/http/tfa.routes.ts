import { Router } from 'express';
import { tfaDisableSchema, tfaEnableSchema, tfaGenerateSchema } from '@vellum/contracts';
import { route, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { tfaUseCase } from '../domain/tfa.use-case';
import { actorOf } from './request-helpers';

/** POST /users/me/tfa/{generate,enable,disable} (contract §3 "Two-factor"); bodies validated with the contract's schemas. */
export function tfaRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'post', '/users/me/tfa/generate', 'authenticated', { body: tfaGenerateSchema }, async (req, res) => {
    const { password } = req.body;
    res.json({ data: await tfaUseCase.generate(ctx, req.accountability!.user!, password) });
  });
  route(r, 'post', '/users/me/tfa/enable', 'authenticated', { body: tfaEnableSchema }, async (req, res) => {
    const { secret, otp } = req.body;
    await tfaUseCase.enable(ctx, req.accountability!.user!, secret, otp, actorOf(req));
    res.status(204).end();
  });
  route(r, 'post', '/users/me/tfa/disable', 'authenticated', { body: tfaDisableSchema }, async (req, res) => {
    const { otp } = req.body;
    await tfaUseCase.disable(ctx, req.accountability!.user!, otp, actorOf(req));
    res.status(204).end();
  });
  return r;
}
