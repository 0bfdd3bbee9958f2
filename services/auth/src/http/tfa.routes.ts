import { Router } from 'express';
import { tfaDisableSchema, tfaEnableSchema, tfaGenerateSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import { errors } from '@vellum/errors';
import type { AuthContext } from '../domain/context';
import { isUuid } from '../domain/payload';
import { tfaUseCase } from '../domain/tfa.use-case';
import { actorOf } from './request-helpers';

/** POST /users/me/tfa/{generate,enable,disable} (contract §3 "Two-factor"), and an administrator's POST /users/:id/tfa/reset. */
export function tfaRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'post', '/users/me/tfa/generate', 'authenticated', { body: tfaGenerateSchema }, async (req, res) => {
    const { password } = req.body;
    sendJson(res, { data: await tfaUseCase.generate(ctx, req.accountability!.user!, password) });
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
  // an administrator resets another user's TFA (lost phone): no body, no code
  route(r, 'post', '/users/:id/tfa/reset', 'admin', async (req, res) => {
    await tfaUseCase.reset(ctx, validUserId(String(req.params.id)), actorOf(req));
    res.status(204).end();
  });
  return r;
}

const validUserId = (id: string) => {
  if (!isUuid(id)) throw errors.forbidden();
  return id;
};
