import { randomUUID } from 'node:crypto';
import { errors, isAppError } from '@vellum/errors';
import { isUniqueViolation, type Tx } from '../data/prisma';
import { sessionRepository } from '../data/session.repository';
import { userRepository, type UserWithRole } from '../data/user.repository';
import { audit, itemChange, systemActor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { OAuthProviderConfig } from '../oauth-config';
import type { AuthContext, ClientInfo, Mode } from './context';
import { issueTokens, sessionExpiry, type IssuedTokens } from './issue-tokens';
import { openidClient } from './oauth-client';
import { OAUTH_STATE_TTL_MS, randomToken, type OAuthState } from './oauth-state';
import { presentUser } from './presenters';
import { allowedRedirect } from './redirect-policy';
import { hashToken, newRefreshToken } from './token-issuer';

export function providerOf(ctx: AuthContext, name: string): OAuthProviderConfig {
  const p = ctx.config.providers.find((x) => x.name === name.toLowerCase());
  if (!p) throw errors.invalidProvider();
  return p;
}

/** The redirect_uri registered at the provider: PUBLIC_URL/auth/login/<provider>/callback. */
export const callbackUrl = (ctx: AuthContext, p: OAuthProviderConfig) =>
  new URL(`auth/login/${p.name}/callback`, ctx.config.PUBLIC_URL.replace(/\/?$/, '/')).toString();

/** Start: PKCE S256 + random state and nonce, kept in the signed cookie; the provider's authorization URL. */
export async function startOAuthLogin(ctx: AuthContext, name: string, redirect: string | undefined): Promise<{ location: string; state: OAuthState }> {
  const p = providerOf(ctx, name);
  let target: string | undefined;
  if (redirect !== undefined) {
    target = allowedRedirect(redirect, ctx.config.PUBLIC_URL, p.redirectAllowList);
    if (!target) throw errors.invalidPayload(`URL "${redirect}" can't be used to redirect after login`);
  }
  const oc = await openidClient();
  const config = await ctx.oauth.clients.get(p);
  const state: OAuthState = {
    id: randomToken(16),
    provider: p.name,
    state: randomToken(),
    nonce: randomToken(),
    verifier: oc.randomPKCECodeVerifier(),
    ...(target ? { redirect: target } : {}),
    exp: ctx.clock.now().getTime() + OAUTH_STATE_TTL_MS,
  };
  const params: Record<string, string> = {
    redirect_uri: callbackUrl(ctx, p),
    scope: p.scope,
    state: state.state,
    code_challenge: await oc.calculatePKCECodeChallenge(state.verifier),
    code_challenge_method: 'S256',
  };
  if (p.driver === 'openid') params.nonce = state.nonce;
  return { location: oc.buildAuthorizationUrl(config, params).toString(), state };
}

/** Accept a state id once (until it expires); false for a replay. */
async function consumeState(ctx: AuthContext, st: OAuthState, now: Date): Promise<boolean> {
  await ctx.db.$executeRaw`DELETE FROM "oauth_states" WHERE "expires_at" < ${now}`;
  const n = await ctx.db.$executeRaw`INSERT INTO "oauth_states" ("id", "expires_at") VALUES (${st.id}, ${new Date(st.exp)}) ON CONFLICT DO NOTHING`;
  return n === 1;
}

export interface OAuthResult {
  tokens: IssuedTokens;
  redirect?: string;
}

/**
 * Callback: the state cookie must be valid, for this provider, unused, and match `state`; openid-client checks
 * the RFC 9207 `iss` parameter (mix-up defence), exchanges the code with the PKCE verifier and verifies the ID
 * token (signature by the issuer's JWKS, iss, aud, exp, nonce). Every refusal → 401 INVALID_CREDENTIALS.
 */
export async function finishOAuthLogin(ctx: AuthContext, name: string, search: string, st: OAuthState | undefined, client: ClientInfo): Promise<OAuthResult> {
  const p = providerOf(ctx, name);
  const now = ctx.clock.now();
  const query = new URLSearchParams(search);
  if (!st || st.provider !== p.name || query.get('state') !== st.state) throw errors.invalidCredentials();
  if (!(await consumeState(ctx, st, now))) {
    ctx.logger.warn({ provider: p.name }, 'oauth state replayed');
    throw errors.invalidCredentials();
  }
  const oc = await openidClient();
  const config = await ctx.oauth.clients.get(p);
  let profile: Record<string, unknown>;
  try {
    const current = new URL(callbackUrl(ctx, p));
    current.search = search;
    const tokens = await oc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: st.verifier,
      expectedState: st.state,
      ...(p.driver === 'openid' ? { expectedNonce: st.nonce, idTokenExpected: true } : {}),
    });
    if (p.driver === 'openid') {
      const claims = tokens.claims()!;
      const userinfo = config.serverMetadata().userinfo_endpoint ? await oc.fetchUserInfo(config, tokens.access_token, claims.sub) : {};
      profile = { ...userinfo, ...claims };
    } else {
      // openid-client only throws on a WWW-Authenticate challenge: any other non-2xx body is an error, not a profile
      const res = await oc.fetchProtectedResource(config, tokens.access_token, new URL(p.profileUrl!), 'GET');
      if (!res.ok) throw new Error(`profile endpoint answered ${res.status}`);
      const body: unknown = await res.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('profile endpoint answered no JSON object');
      profile = body as Record<string, unknown>;
    }
  } catch (e) {
    if (isAppError(e)) throw e;
    ctx.logger.info(
      { provider: p.name, err: { name: (e as Error).name, message: (e as Error).message, code: (e as { code?: string }).code } },
      'oauth callback refused',
    );
    throw errors.invalidCredentials();
  }
  const identifier = profile[p.identifierKey];
  if ((typeof identifier !== 'string' && typeof identifier !== 'number') || String(identifier) === '') throw errors.invalidCredentials();
  const email = typeof profile[p.emailKey] === 'string' ? (profile[p.emailKey] as string) : undefined;
  const user = await resolveUser(ctx, p, String(identifier), email, profile.email_verified === true, profile);
  const mode: Mode = st.redirect ? p.mode : 'json';
  const tokens = await openSession(ctx, user, mode, client, now);
  return { tokens, redirect: st.redirect };
}

/**
 * The user keyed by (provider, identifier). Else: link an existing account by e-mail only when the provider says
 * the e-mail is verified AND AUTH_<P>_LINK_EXISTING_BY_VERIFIED_EMAIL is on; else create one only when
 * AUTH_<P>_ALLOW_PUBLIC_REGISTRATION is on, into AUTH_<P>_DEFAULT_ROLE_ID. A non-active user is refused.
 */
async function resolveUser(
  ctx: AuthContext,
  p: OAuthProviderConfig,
  identifier: string,
  email: string | undefined,
  emailVerified: boolean,
  profile: Record<string, unknown>,
): Promise<UserWithRole> {
  const now = ctx.clock.now();
  const find = () =>
    ctx.db.user.findUnique({ where: { provider_external_identifier: { provider: p.name, external_identifier: identifier } }, include: { role: true } });
  let user = await find();
  if (!user) {
    const existing = email ? await userRepository.findByEmail(ctx.pg, email) : null;
    try {
      user = await ctx.db.$transaction(async (tx: Tx): Promise<UserWithRole> => {
        if (existing) {
          if (!(emailVerified && p.linkExistingByVerifiedEmail) || existing.external_identifier) throw errors.invalidCredentials();
          const { count } = await tx.user.updateMany({
            where: { id: existing.id, external_identifier: null },
            data: { provider: p.name, external_identifier: identifier },
          });
          if (count !== 1) throw errors.invalidCredentials();
          const linked = await tx.user.findUniqueOrThrow({ where: { id: existing.id }, include: { role: true } });
          await enqueue(tx, itemChange('vellum_users', 'update', linked.id, presentUser(linked), systemActor, now));
          ctx.logger.info({ user: linked.id, provider: p.name }, 'linked an existing account to the provider by verified e-mail');
          return linked;
        }
        if (!p.allowPublicRegistration) throw errors.invalidCredentials();
        const created = await tx.user.create({
          data: {
            id: randomUUID(),
            email: email ?? null,
            provider: p.name,
            external_identifier: identifier,
            status: 'active',
            role_id: p.defaultRoleId ?? null,
            first_name: typeof profile.given_name === 'string' ? profile.given_name : null,
            last_name: typeof profile.family_name === 'string' ? profile.family_name : null,
          },
          include: { role: true },
        });
        await enqueue(tx, itemChange('vellum_users', 'create', created.id, presentUser(created), systemActor, now));
        return created;
      });
    } catch (e) {
      // a parallel first login of the same identity created it: use that one
      if (!isUniqueViolation(e)) throw e;
      user = await find();
      if (!user) throw errors.invalidCredentials();
    }
  }
  if (user.status !== 'active') throw errors.invalidCredentials();
  return user;
}

async function openSession(ctx: AuthContext, user: UserWithRole, mode: Mode, client: ClientInfo, now: Date): Promise<IssuedTokens> {
  const token = newRefreshToken();
  const session = await ctx.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { last_access: now } });
    const s = await sessionRepository.create(tx, {
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: sessionExpiry(ctx, mode, now, now),
      familyCreatedAt: now,
      ...client,
    });
    await enqueue(tx, audit('login', user.id, { user: user.id, ip: client.ip, userAgent: client.userAgent, origin: client.origin }, now));
    return s;
  });
  return issueTokens(ctx, user, session, mode === 'session' ? undefined : token, mode, now);
}
