import { createSubgraph as serveSubgraph } from '@vellum/subgraph';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { loginRequestSchema, passwordRequestSchema, passwordResetSchema, refreshRequestSchema } from '@vellum/contracts';
import { clientInfo, parseBody } from '@vellum/http';

import type { AuthContext } from '../domain/context';
import { requestPasswordReset } from '../domain/password-request.use-case';
import { resetPassword } from '../domain/password-reset.use-case';
import { stalled } from '../domain/stall';
import { cookieTokenError } from './graphql-authenticate';
import { answerLogin, answerLogout, answerRefresh, type PresentedRequest, type TokenAnswer } from '../domain/token-answers.use-case';
import { usersUseCase } from '../domain/users.use-case';

export const AUTH_SDL = readFileSync(path.join(__dirname, 'schema.graphql'), 'utf8');

interface GqlContext {
  req: Request;
  res: Response;
}
type Args = Record<string, unknown>;

const presented = (req: Request): PresentedRequest => ({ headers: req.headers, client: clientInfo(req) });

/** The cookies go on the HTTP answer of the GraphQL request; returns the answer's data. */
const withCookies = (res: Response, a: TokenAnswer) => {
  for (const c of a.setCookies) res.append('Set-Cookie', c);
  return a.data;
};

const asTokens = (d: Record<string, unknown>) => ({
  access_token: d.access_token ?? null,
  refresh_token: d.refresh_token ?? null,
  expires: d.expires === undefined ? null : String(d.expires),
});

/** A user as the entity shows it: everything to admins and to the user themself, the id only to others. */
async function userEntity(ctx: AuthContext, req: Request, id: string) {
  callerOrThrow(req);
  const a = req.accountability;
  if (!a?.admin && a?.user !== id) return { id };
  try {
    return await usersUseCase.get(ctx, id);
  } catch {
    return null;
  }
}

/** A session cookie that failed the token check: what needs the caller answers that check's error. */
function callerOrThrow(req: Request): void {
  const failed = cookieTokenError(req);
  if (failed) throw failed;
}

export function createSubgraph(ctx: AuthContext) {
  const resolvers = {
    Query: {
      users_me: async (_: unknown, __: Args, { req }: GqlContext) => {
        callerOrThrow(req);
        const user = req.accountability?.user;
        return user ? usersUseCase.me(ctx, user) : null;
      },
    },
    Mutation: {
      // invalid arguments take LOGIN_STALL_TIME too, like every other outcome
      auth_login: async (_: unknown, args: Args, { req, res }: GqlContext) =>
        asTokens(withCookies(res, await stalled(ctx.config.LOGIN_STALL_TIME, () => answerLogin(ctx, parseBody(loginRequestSchema, args), presented(req))))),
      auth_refresh: async (_: unknown, args: Args, { req, res }: GqlContext) =>
        asTokens(withCookies(res, await answerRefresh(ctx, parseBody(refreshRequestSchema, args), presented(req)))),
      auth_logout: async (_: unknown, args: Args, { req, res }: GqlContext) => {
        withCookies(res, await answerLogout(ctx, parseBody(refreshRequestSchema, args), presented(req)));
        return true;
      },
      auth_password_request: async (_: unknown, args: Args) => {
        await stalled(ctx.config.LOGIN_STALL_TIME, async () => {
          const b = parseBody(passwordRequestSchema, args);
          await requestPasswordReset(ctx, b.email, b.reset_url ?? undefined);
        });
        return true;
      },
      auth_password_reset: async (_: unknown, args: Args, { req }: GqlContext) => {
        const b = parseBody(passwordResetSchema, args);
        await resetPassword(ctx, b.token, b.password, clientInfo(req));
        return true;
      },
    },
    vellum_users: {
      __resolveReference: (ref: { id: string }, { req }: GqlContext) => userEntity(ctx, req, ref.id),
    },
  };
  return serveSubgraph(AUTH_SDL, resolvers);
}
