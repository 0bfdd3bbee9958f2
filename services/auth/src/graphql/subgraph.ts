import { createSubgraph as serveSubgraph } from '@vellum/subgraph';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { loginRequestSchema, passwordRequestSchema, passwordResetSchema, refreshRequestSchema } from '@vellum/contracts';
import { parseBody } from '@vellum/http';

import type { AuthContext } from '../domain/context';
import { stalled } from '../domain/stall';
import { usersUseCase } from '../domain/users.use-case';
import { loginOperation, logoutOperation, passwordRequestOperation, passwordResetOperation, refreshOperation } from '../http/auth-operations';

export const AUTH_SDL = readFileSync(path.join(__dirname, 'schema.graphql'), 'utf8');

interface GqlContext {
  req: Request;
  res: Response;
}
type Args = Record<string, unknown>;

const asTokens = (d: Record<string, unknown>) => ({
  access_token: d.access_token ?? null,
  refresh_token: d.refresh_token ?? null,
  expires: d.expires === undefined ? null : String(d.expires),
});

/** A user as the entity shows it: everything to admins and to the user themself, the id only to others. */
async function userEntity(ctx: AuthContext, req: Request, id: string) {
  const a = req.accountability;
  if (!a?.admin && a?.user !== id) return { id };
  try {
    return await usersUseCase.get(ctx, id);
  } catch {
    return null;
  }
}

export function createSubgraph(ctx: AuthContext) {
  const resolvers = {
    Query: {
      users_me: async (_: unknown, __: Args, { req }: GqlContext) => {
        const user = req.accountability?.user;
        return user ? usersUseCase.me(ctx, user) : null;
      },
    },
    Mutation: {
      // invalid arguments take LOGIN_STALL_TIME too, like every other outcome
      auth_login: async (_: unknown, args: Args, { req, res }: GqlContext) =>
        asTokens(await stalled(ctx.config.LOGIN_STALL_TIME, () => loginOperation(ctx, req, res, parseBody(loginRequestSchema, args)))),
      auth_refresh: async (_: unknown, args: Args, { req, res }: GqlContext) =>
        asTokens(await refreshOperation(ctx, req, res, parseBody(refreshRequestSchema, args))),
      auth_logout: async (_: unknown, args: Args, { req, res }: GqlContext) => {
        await logoutOperation(ctx, req, res, parseBody(refreshRequestSchema, args));
        return true;
      },
      auth_password_request: async (_: unknown, args: Args) => {
        await stalled(ctx.config.LOGIN_STALL_TIME, () => passwordRequestOperation(ctx, parseBody(passwordRequestSchema, args)));
        return true;
      },
      auth_password_reset: async (_: unknown, args: Args, { req }: GqlContext) => {
        await passwordResetOperation(ctx, req, parseBody(passwordResetSchema, args));
        return true;
      },
    },
    vellum_users: {
      __resolveReference: (ref: { id: string }, { req }: GqlContext) => userEntity(ctx, req, ref.id),
    },
  };
  return serveSubgraph(AUTH_SDL, resolvers);
}
