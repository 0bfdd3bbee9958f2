import { AppError, errors } from '@vellum/errors';
import { enqueueOutbox } from '@vellum/outbox';
import { loginRepository } from '../data/login.repository';
import { sessionRepository } from '../data/session.repository';
import { userRepository, type LoginAccount } from '../data/user.repository';
import { audit, itemChange, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { Session } from '../data/prisma';
import type { AuthContext, ClientInfo, Mode } from './context';
import { presentedDevice, trustDevice, type TrustedDevice } from './devices.use-case';
import { recordLoginFailure } from './login-failures';
import { accountKey, LoginBuckets } from './login-buckets';
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
  /** The device cookie sent with the request, if any. */
  device?: string;
  /** A solved proof-of-work challenge (`<challenge>:<nonce>`), needed from untrusted clients during a spray. */
  pow?: string;
}

/** The tokens, and the device cookie's new value (a new device, or the presented one rotated). */
export interface LoginResult {
  tokens: IssuedTokens;
  device: TrustedDevice;
}

const OTP_REPLAYED = Symbol('otp replayed');

const actorOf = (user: string | null, c: ClientInfo): Actor => ({ user, ip: c.ip, userAgent: c.userAgent, origin: c.origin });

/**
 * Login. Every outcome takes at least LOGIN_STALL_TIME; an unknown e-mail verifies against a dummy hash with the
 * same parameters; a locked bucket, an inactive or other-provider account answer exactly like a wrong password.
 */
export async function login(ctx: AuthContext, input: LoginInput, client: ClientInfo): Promise<LoginResult> {
  const started = performance.now();
  try {
    const throttled = await ctx.loginThrottle.check(client.ip, input.email);
    let result: LoginResult;
    try {
      result = await attempt(ctx, input, client);
    } catch (e) {
      if (countsAsFailure(e, input)) await throttleFailure(ctx, throttled, client);
      throw e;
    }
    await ctx.loginThrottle.succeeded(throttled);
    return result;
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

async function attempt(ctx: AuthContext, input: LoginInput, client: ClientInfo): Promise<LoginResult> {
  // Overload: refuse (503) before the lookup when the password check would be refused anyway. It depends on the
  // load only, never on the account, and the answer still waits for the stall time.
  ctx.hasher.limiter.admit();
  const now = ctx.clock.now();
  const account = accountKey(input.email);
  const user = await userRepository.findForLogin(ctx.pg, input.email);
  const device = user ? await presentedDevice(ctx, input.device, user.id) : undefined;
  const bucket = LoginBuckets.bucketOf(account, device?.deviceId);
  if (!device) await requireProofOfWork(ctx, input.pow, now);
  // A locked bucket does no password work: its answer is a wrong password's, after the same stall.
  const locked = await ctx.buckets.isLocked(bucket);
  const passwordOk = !locked && (await ctx.hasher.verify(user?.provider === 'default' ? user.password : null, input.password));
  const fail = async (counts: boolean): Promise<never> => {
    await recordLoginFailure(ctx, { user, bucket: counts ? bucket : undefined, device: device?.deviceId, client, now });
    throw errors.invalidCredentials();
  };

  if (!user || locked || !passwordOk || user.provider !== 'default') return fail(!locked && !passwordOk);
  if (user.status !== 'active') return fail(false);
  // TOTP, checked only after the password matched: no code → INVALID_OTP (not a failure: the normal first step);
  // a wrong code spends the account's TOTP budget (all devices together); the matched step is claimed below.
  let otpStep: number | undefined;
  if (user.tfa_secret) {
    if (!input.otp) throw errors.invalidOtp();
    otpStep = (await ctx.buckets.otpLocked(account)) ? undefined : verifyUserOtp(ctx, user, input.otp, now);
    if (otpStep === undefined) return otpFailure(ctx, user, account, device?.deviceId, client, now);
  }
  const session = await recordSuccess(ctx, user, input, otpStep, client, now);
  if (!session) {
    if (otpStep === undefined) throw errors.invalidCredentials(); // the user was deleted meanwhile
    return otpFailure(ctx, user, account, device?.deviceId, client, now); // the code was already used
  }
  await ctx.buckets.succeeded(bucket);
  const trusted = await trustDevice(ctx, user.id, device, 'login', client, now);
  return { tokens: issueTokens(ctx, user, session.row, session.token, input.mode, now), device: trusted };
}

/** During a spray, an untrusted client without a fresh solved challenge gets one to solve (no account work done). */
async function requireProofOfWork(ctx: AuthContext, pow: string | undefined, now: Date): Promise<void> {
  if (!(await ctx.buckets.powRequired())) return;
  const difficulty = ctx.config.AUTH_POW_DIFFICULTY;
  if (await ctx.pow.accept(pow, difficulty, now)) return;
  throw errors.proofOfWorkRequired(ctx.pow.challenge(difficulty, now), difficulty);
}

async function otpFailure(ctx: AuthContext, user: LoginAccount, account: string, device: string | undefined, client: ClientInfo, now: Date): Promise<never> {
  const otpLocked = await ctx.buckets.otpFailed(account);
  await recordLoginFailure(ctx, { user, device, client, now, otp: { locked: otpLocked } });
  throw errors.invalidOtp();
}

/** The session row written for a successful login, and the refresh token to hand out (none in session mode). */
async function recordSuccess(ctx: AuthContext, user: LoginAccount, input: LoginInput, otpStep: number | undefined, client: ClientInfo, now: Date) {
  const token = newRefreshToken();
  const expiresAt = sessionExpiry(ctx, input.mode, now, now);
  // The common case writes in one statement (plain SQL, no Prisma query compilation, one round trip); a rehash
  // (parameters changed: rare) also publishes the user's change and takes the Prisma transaction.
  const rehash = user.password && ctx.hasher.needsRehash(user.password) ? await ctx.hasher.hash(input.password) : undefined;
  const row = rehash
    ? await loginWithRehash(ctx, user.id, rehash, otpStep, token, expiresAt, client, now)
    : await loginRepository.recordSuccess(ctx.pg, {
        userId: user.id,
        now,
        otpStep,
        tokenHash: hashToken(token),
        expiresAt,
        ...client,
        event: audit('login', user.id, actorOf(user.id, client), now),
      });
  return row && { row, token: input.mode === 'session' ? undefined : token };
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
      const updated = await tx.user.update({ where: { id: userId }, data: { failed_login_attempts: 0, last_access: now, password: rehash } });
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
