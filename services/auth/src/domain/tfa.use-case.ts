import { timingSafeEqual } from 'node:crypto';
import { errors } from '@vellum/errors';
import type { Tx, User } from '../data/prisma';
import { audit, itemChange, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext } from './context';
import { recordLoginFailure } from './login-failures';
import { accountKey } from './login-buckets';
import { presentUser } from './presenters';
import { generateTotpSecret, otpauthUrl, verifyTotp } from './totp';

/** The additional data binding a sealed secret to its user (a value copied to another row does not open). */
const aad = (userId: string) => `tfa:${userId}`;

const sameString = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The time step matched by `otp` against the user's enabled secret (±1 step), or undefined. */
export function verifyUserOtp(ctx: AuthContext, user: Pick<User, 'id' | 'tfa_secret'>, otp: string, now: Date): number | undefined {
  const secret = user.tfa_secret ? ctx.secrets.open(user.tfa_secret, aad(user.id)) : undefined;
  if (!secret) {
    if (user.tfa_secret) ctx.logger.error({ user: user.id }, 'the TFA secret cannot be decrypted (wrong AUTH_TFA_ENCRYPTION_KEY?)');
    return undefined;
  }
  return verifyTotp(secret, otp, now);
}

/**
 * Compare-and-set of the last used time step: true when this call moved it forward to `step`. Two parallel
 * uses of one code: the second UPDATE waits for the first's row lock, re-reads the row and matches nothing.
 */
export async function claimOtpStep(tx: Tx, userId: string, step: number): Promise<boolean> {
  const n = await tx.$executeRaw`UPDATE "users" SET "tfa_last_step" = ${step} WHERE "id" = ${userId}::uuid AND "tfa_last_step" < ${step}`;
  return n === 1;
}

async function loadUser(ctx: AuthContext, userId: string): Promise<User> {
  const user = await ctx.db.user.findUnique({ where: { id: userId } });
  if (!user) throw errors.forbidden();
  return user;
}

export const tfaUseCase = {
  /** A new secret for the caller, kept pending (encrypted) until enabled with a code from it. */
  async generate(ctx: AuthContext, userId: string, password: string): Promise<{ secret: string; otpauth_url: string }> {
    const user = await loadUser(ctx, userId);
    if (user.provider !== 'default' || !(await ctx.hasher.verify(user.password, password))) throw errors.invalidCredentials();
    if (user.tfa_secret) throw errors.invalidPayload('TFA is already enabled for this user');
    const secret = generateTotpSecret();
    await ctx.db.user.update({
      where: { id: user.id },
      data: { tfa_pending_secret: ctx.secrets.seal(secret, aad(user.id)) },
    });
    return { secret, otpauth_url: otpauthUrl(secret, user.email ?? user.id, ctx.config.PROJECT_NAME) };
  },

  /** Enable with the pending secret and a code from it (that code is then used up). */
  async enable(ctx: AuthContext, userId: string, secret: string, otp: string, actor: Actor): Promise<void> {
    const user = await loadUser(ctx, userId);
    if (user.tfa_secret) throw errors.invalidPayload('TFA is already enabled for this user');
    const pending = user.tfa_pending_secret ? ctx.secrets.open(user.tfa_pending_secret, aad(user.id)) : undefined;
    if (!pending || !sameString(pending, secret)) throw errors.invalidPayload('"secret" is not the secret generated for this user');
    const now = ctx.clock.now();
    const step = verifyTotp(pending, otp, now);
    if (step === undefined) throw errors.invalidOtp();
    await ctx.db.$transaction(async (tx) => {
      // compare-and-set on the pending value: a concurrent generate/enable makes this one fail
      const { count } = await tx.user.updateMany({
        where: { id: user.id, tfa_pending_secret: user.tfa_pending_secret, tfa_secret: null },
        data: { tfa_secret: user.tfa_pending_secret, tfa_pending_secret: null, tfa_last_step: step },
      });
      if (count !== 1) throw errors.invalidPayload('"secret" is not the secret generated for this user');
      const updated = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
      await enqueue(tx, [itemChange('vellum_users', 'update', user.id, presentUser(updated), actor, now), audit('tfa_enabled', user.id, actor, now)]);
    });
  },

  /**
   * An administrator (or the CLI) turns TFA off for a user who lost their authenticator: no code asked; the user
   * signs in with the password alone and may enrol again. Audited as `tfa_disabled` by the administrator.
   */
  async reset(ctx: AuthContext, userId: string, actor: Actor): Promise<void> {
    const user = await loadUser(ctx, userId);
    if (!user.tfa_secret && !user.tfa_pending_secret) throw errors.invalidPayload('TFA is not enabled for this user');
    const now = ctx.clock.now();
    await ctx.db.$transaction(async (tx) => {
      const updated = await tx.user.update({ where: { id: user.id }, data: { tfa_secret: null, tfa_pending_secret: null } });
      await enqueue(tx, [itemChange('vellum_users', 'update', user.id, presentUser(updated), actor, now), audit('tfa_disabled', user.id, actor, now)]);
    });
  },

  /** Disable with a current code (used once like a login code; wrong codes spend the account's TOTP budget). */
  async disable(ctx: AuthContext, userId: string, otp: string, actor: Actor): Promise<void> {
    const user = await loadUser(ctx, userId);
    if (!user.tfa_secret) throw errors.invalidPayload('TFA is not enabled for this user');
    const now = ctx.clock.now();
    const account = accountKey(user.email ?? '');
    const step = (await ctx.buckets.otpLocked(account)) ? undefined : verifyUserOtp(ctx, user, otp, now);
    const ok =
      step !== undefined &&
      (await ctx.db.$transaction(async (tx) => {
        if (!(await claimOtpStep(tx, user.id, step))) return false;
        const updated = await tx.user.update({
          where: { id: user.id },
          data: { tfa_secret: null, tfa_pending_secret: null },
        });
        await enqueue(tx, [itemChange('vellum_users', 'update', user.id, presentUser(updated), actor, now), audit('tfa_disabled', user.id, actor, now)]);
        return true;
      }));
    if (!ok) {
      const client = { ip: actor.ip ?? null, userAgent: actor.userAgent ?? null, origin: actor.origin ?? null };
      await recordLoginFailure(ctx, { user, client, now, otp: { locked: await ctx.buckets.otpFailed(account) } });
      throw errors.invalidOtp();
    }
  },
};
