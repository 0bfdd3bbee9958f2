import { AppError, errors } from '@vellum/errors';
import { enqueueOutbox } from '@vellum/outbox';
import { loginRepository } from '../data/login.repository';
import { sessionRepository } from '../data/session.repository';
import { userRepository } from '../data/user.repository';
import { audit, itemChange, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { Session } from '../data/prisma';
import type { AuthContext, ClientInfo, Mode } from './context';
import { isLocked, recordLoginFailure } from './login-failures';
import type { ThrottledAttempt } from './login-throttle';
import { claimOtpStep, verifyUserOtp } from './tfa.use-case';
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

const OTP_REPLAYED = Symbol('otp replayed');

const actorOf = (user: string | null, c: ClientInfo): Actor => ({ user, ip: c.ip, userAgent: c.userAgent, origin: c.origin });

/**
 * Login. Every outcome takes at least LOGIN_STALL_TIME; an unknown e-mail verifies against a dummy hash with the
 * same parameters; a locked, inactive or other-provider account answers exactly like a wrong password.
 */
export async function login(ctx: AuthContext, input: LoginInput, client: ClientInfo): Promise<IssuedTokens> {
  const started = performance.now();
  try {
    const throttled = await ctx.loginThrottle.check(client.ip, input.email);
    let tokens: IssuedTokens;
    try {
      tokens = await attempt(ctx, input, client);
    } catch (e) {
      if (countsAsFailure(e, input)) await throttleFailure(ctx, throttled, client);
      throw e;
    }
    await ctx.loginThrottle.succeeded(throttled);
    return tokens;
  } finally {
    await stallUntil(started, ctx.config.LOGIN_STALL_TIME);
  }
}

/** A wrong password (or unknown/locked account: the same answer) or a wrong TOTP code; not a missing code. */
const countsAsFailure = (e: unknown, input: LoginInput) =>
  e instanceof AppError && (e.code === 'INVALID_CREDENTIALS' || (e.code === 'INVALID_OTP' && Boolean(input.otp)));

/** Counts the failure per address and (address, account); the failure that spends a budget is audited. */
async function throttleFailure(ctx: AuthContext, throttled: ThrottledAttempt, client: ClientInfo): Promise<void> {
  const spent = await ctx.loginThrottle.failed(throttled);
  if (!spent) return;
  ctx.logger.warn({ ip: client.ip, scope: spent }, 'failed logins exceeded their budget: further logins refused (429) until the window ends');
  await enqueueOutbox(ctx.pg, audit('login_throttled', null, actorOf(null, client), ctx.clock.now()));
}

async function attempt(ctx: AuthContext, input: LoginInput, client: ClientInfo): Promise<IssuedTokens> {
  // Overload: refuse (503) before the lookup when the password check would be refused anyway. It depends on the
  // load only, never on the account, and the answer still waits for the stall time.
  ctx.hasher.limiter.admit();
  const user = await userRepository.findForLogin(ctx.pg, input.email);
  const passwordOk = await ctx.hasher.verify(user?.provider === 'default' ? user.password : null, input.password);
  const now = ctx.clock.now();

  // (a single row: one statement, its own transaction)
  if (!user) {
    await enqueueOutbox(ctx.pg, audit('login_failed', null, actorOf(null, client), now));
    throw errors.invalidCredentials();
  }
  const locked = isLocked(user, now);
  if (locked || !passwordOk || user.provider !== 'default') {
    await recordLoginFailure(ctx, user, actorOf(null, client), now, !locked && !passwordOk);
    throw errors.invalidCredentials();
  }
  if (user.status !== 'active') {
    await enqueueOutbox(ctx.pg, audit('login_failed', user.id, actorOf(null, client), now));
    throw errors.invalidCredentials();
  }
  // TOTP, checked only after the password matched: no code → INVALID_OTP (not a failure: the normal first step);
  // a wrong code counts toward the lockout; the matched time step is claimed below with compare-and-set.
  let otpStep: number | undefined;
  if (user.tfa_secret) {
    if (!input.otp) throw errors.invalidOtp();
    otpStep = verifyUserOtp(ctx, user, input.otp, now);
    if (otpStep === undefined) {
      await recordLoginFailure(ctx, user, actorOf(null, client), now, true);
      throw errors.invalidOtp();
    }
  }

  const token = newRefreshToken();
  const expiresAt = sessionExpiry(ctx, input.mode, now, now);
  const actor = actorOf(user.id, client);
  // The common case writes in one statement (plain SQL, no Prisma query compilation, one round trip); a rehash
  // (parameters changed: rare) also publishes the user's change and takes the Prisma transaction.
  const rehash = user.password && ctx.hasher.needsRehash(user.password) ? await ctx.hasher.hash(input.password) : undefined;
  const session = rehash
    ? await loginWithRehash(ctx, user.id, rehash, otpStep, token, expiresAt, client, now)
    : await loginRepository.recordSuccess(ctx.pg, {
        userId: user.id,
        now,
        otpStep,
        tokenHash: hashToken(token),
        expiresAt,
        ...client,
        event: audit('login', user.id, actor, now),
      });
  if (!session) {
    if (otpStep === undefined) throw errors.invalidCredentials(); // the user was deleted meanwhile
    // the code was already used (or a parallel login with it won): refused, and counted
    await recordLoginFailure(ctx, user, actorOf(null, client), now, true);
    throw errors.invalidOtp();
  }
  return issueTokens(ctx, user, session, input.mode === 'session' ? undefined : token, input.mode, now);
}

/** A successful login that also stores a new hash of the password (and publishes the user's change). */
async function loginWithRehash(
  ctx: AuthContext,
  userId: string,
  rehash: string,
  otpStep: number | undefined,
  token: string,
  expiresAt: Date,
  client: ClientInfo,
  now: Date,
): Promise<Session | undefined> {
  try {
    return await ctx.db.$transaction(async (tx) => {
      if (otpStep !== undefined && !(await claimOtpStep(tx, userId, otpStep))) throw OTP_REPLAYED;
      const updated = await tx.user.update({
        where: { id: userId },
        data: { failed_login_attempts: 0, lock_count: 0, locked_until: null, last_access: now, password: rehash },
      });
      const s = await sessionRepository.create(tx, { userId, tokenHash: hashToken(token), expiresAt, familyCreatedAt: now, ...client });
      const actor = actorOf(userId, client);
      await enqueue(tx, [audit('login', userId, actor, now), itemChange('vellum_users', 'update', userId, presentUser(updated), actor, now)]);
      return s;
    });
  } catch (e) {
    if (e === OTP_REPLAYED) return undefined;
    throw e;
  }
}
