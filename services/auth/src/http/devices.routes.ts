import { Router, type Response } from 'express';
import { deviceTrustSchema } from '@vellum/contracts';
import { route, sendJson, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { deviceCookie, deviceCookieOf, devicesUseCase, trustDeviceByLink } from '../domain/devices.use-case';
import { actorOf, client, userScopes } from './request-helpers';

/**
 * Device cookies (docs/api.md "Login protection"): `POST /auth/device` trusts the browser that opened a
 * password-reset or invitation link; `GET/DELETE /users/me/devices[/:device]` and the admin equivalents under
 * `/users/:id/devices`; `POST /users/:id/unlock` (admin) starts the user's failed-login buckets again.
 */
export function devicesRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  const setDevice = (res: Response, value: string) => res.appendHeader('Set-Cookie', value);
  route(r, 'post', '/auth/device', 'public', { body: deviceTrustSchema }, async (req, res) => {
    setDevice(res, deviceCookie(ctx, await trustDeviceByLink(ctx, req.body.token, client(req))));
    res.status(204).end();
  });
  for (const { base, access, user } of userScopes) {
    route(r, 'get', `${base}/devices`, access, async (req, res) => {
      sendJson(res, { data: await devicesUseCase.list(ctx, user(req), deviceCookieOf(ctx, req.headers.cookie)) });
    });
    route(r, 'delete', `${base}/devices/:device`, access, async (req, res) => {
      await devicesUseCase.revoke(ctx, user(req), String(req.params.device), actorOf(req));
      res.status(204).end();
    });
  }
  route(r, 'post', '/users/:id/unlock', 'admin', async (req, res) => {
    await devicesUseCase.unlock(ctx, userScopes[1].user(req), actorOf(req));
    res.status(204).end();
  });
  return r;
}
