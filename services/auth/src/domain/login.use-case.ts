import { errors } from '@vellum/errors';
import { sessionRepository } from '../data/session.repository';
import { userRepository } from '../data/user.repository';
import { audit, enqueue, itemChange, type Actor } from '../events/auth-events';
import type { AuthContext, ClientInfo, Mode } from './context';
import { issueTokens, sessionExpiry, type IssuedTokens } from './issue-tokens';
import { presentUser } from './presenters';
import { stallUntil } from './stall';
import { hashToken, newRefreshToken } from './token-issuer';

export interface LoginInput {
  email: string;
  password: string;
  mode: Mode;
  otp?: string;
}

const actorOf = (user: string | null, c: ClientInfo): Actor => ({ user, ip: c.ip, userAgent: c.userAgent, origin: c.origin });

/**
 * Login. Every outcome takes at least LOGIN_STALL_TIME; an unknown e-mail verifies against a dummy hash with the
 * same parameters; a locked, inactive or other-provider account answers exactly like a wrong password.
 */
export async function login(ctx: AuthContext, input: LoginInput, client: ClientInfo): Promise<IssuedTokens> {
  const started = performance.now();
  try {
    return await attempt(ctx, input, client);
  } finally {
    await stallUntil(started, ctx.config.LOGIN_STALL_TIME);
  }
}

async function attempt(ctx: AuthContext, input: LoginInput, client: ClientInfo): Promise<IssuedTokens> {
  const { config, db } = ctx;
  const user = await userRepository.findByEmail(db, input.email);
  const passwordOk = await ctx.hasher.verify(user?.provider === 'default' ? user.password : null, input.password);
  const now = ctx.clock.now();

  if (!user) {
    await db.$transaction((tx) => enqueue(tx, audit('login_failed', null, actorOf(null, client), now)));
    throw errors.invalidCredentials();
  }
  const locked = user.locked_until !== null && user.locked_until > now;
  if (locked || !passwordOk || user.provider !== 'default') {
    await db.$transaction(async (tx) => {
      const messages = [audit('login_failed', user.id, actorOf(null, client), now)];
      if (!locked && !passwordOk) {
        // count consecutive failures; at the threshold lock temporarily, doubling per lock up to the maximum
        const attempts = user.failed_login_attempts + 1;
        if (attempts >= config.AUTH_LOGIN_ATTEMPTS) {
          const duration = Math.min(config.AUTH_LOCK_DURATION * 2 ** Math.min(user.lock_count, 30), config.AUTH_LOCK_MAX_DURATION);
          await tx.user.update({
            where: { id: user.id },
            data: { failed_login_attempts: 0, lock_count: { increment: 1 }, locked_until: new Date(now.getTime() + duration) },
          });
          messages.push(audit('lockout', user.id, actorOf(null, client), now));
          ctx.logger.warn({ user: user.id, lockMs: duration }, 'account temporarily locked after repeated failed logins');
        } else {
          await tx.user.update({ where: { id: user.id }, data: { failed_login_attempts: attempts } });
        }
      }
      await enqueue(tx, messages);
    });
    throw errors.invalidCredentials();
  }
  if (user.status !== 'active') {
    await db.$transaction((tx) => enqueue(tx, audit('login_failed', user.id, actorOf(null, client), now)));
    throw errors.invalidCredentials();
  }
  if (user.tfa_secret) {
    // TOTP verification arrives with the TFA issue; until then a TFA user needs it and cannot pass without it.
    throw errors.invalidOtp();
  }

  const rehash = user.password && ctx.hasher.needsRehash(user.password) ? await ctx.hasher.hash(input.password) : undefined;
  const token = newRefreshToken();
  const session = await db.$transaction(async (tx) => {
    const updated = await tx.user.update({
      where: { id: user.id },
      data: { failed_login_attempts: 0, lock_count: 0, locked_until: null, last_access: now, ...(rehash ? { password: rehash } : {}) },
    });
    const s = await sessionRepository.create(tx, {
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: sessionExpiry(ctx, input.mode, now, now),
      familyCreatedAt: now,
      ...client,
    });
    const messages = [audit('login', user.id, actorOf(user.id, client), now)];
    if (rehash) messages.push(itemChange('vellum_users', 'update', user.id, presentUser(updated), actorOf(user.id, client), now));
    await enqueue(tx, messages);
    return s;
  });
  return issueTokens(ctx, user, session, input.mode === 'session' ? undefined : token, input.mode, now);
}
