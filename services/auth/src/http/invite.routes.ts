import { Router } from 'express';
import { inviteAcceptSchema, inviteSchema } from '@vellum/contracts';
import { route, type RouteTable } from '@vellum/http';
import type { AuthContext } from '../domain/context';
import { acceptInvite, inviteUsers, parseInvite } from '../domain/invite.use-case';
import { actorOf, client } from './request-helpers';

/** POST /users/invite (admin) and POST /users/invite/accept (public: the token is the credential). */
export function inviteRoutes(ctx: AuthContext): Router & RouteTable {
  const r = Router() as Router & RouteTable;
  route(r, 'post', '/users/invite', 'admin', { body: inviteSchema }, async (req, res) => {
    await inviteUsers(ctx, parseInvite(ctx, req.body), actorOf(req));
    res.status(204).end();
  });
  route(r, 'post', '/users/invite/accept', 'public', { body: inviteAcceptSchema }, async (req, res) => {
    const { token, password } = req.body;
    await acceptInvite(ctx, token, password, client(req));
    res.status(204).end();
  });
  return r;
}
