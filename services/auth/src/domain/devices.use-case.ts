import { parse as parseCookie } from 'cookie';
import { AppError, errors } from '@vellum/errors';
import { enqueueOutbox } from '@vellum/outbox';
import { deviceRepository, type DeviceTrust } from '../data/device.repository';
import { audit, type Actor } from './auth-messages';
import { authCookie } from './auth-cookies';
import type { AuthContext, ClientInfo } from './context';
import { deviceSecretHash, type DeviceCredential } from './device-cookie';
import { deviceAuditItem } from './login-failures';
import { accountKey } from './login-buckets';
import { isUuid } from './payload';
import { passwordFingerprint } from './token-issuer';

/** A device cookie to set: the credential sealed, for DEVICE_COOKIE_TTL. */
export interface TrustedDevice {
  credential: DeviceCredential;
}

/** A device as `GET /users/me/devices` shows it (never its secret). */
export interface PresentedDevice {
  id: string;
  trusted_by: string;
  created: string;
  last_used: string;
  ip: string | null;
  user_agent: string | null;
  /** The device the request itself came from (its device cookie). */
  current: boolean;
}

/** The `Set-Cookie` value of a device cookie. */
export const deviceCookie = (ctx: AuthContext, d: TrustedDevice) =>
  authCookie(ctx.config, ctx.config.DEVICE_COOKIE_NAME, ctx.devices.seal(d.credential), Math.floor(ctx.config.DEVICE_COOKIE_TTL / 1000));

/** The device cookie's value among a request's cookies. */
export function deviceCookieOf(ctx: AuthContext, cookieHeader: string | undefined): string | undefined {
  return cookieHeader ? parseCookie(cookieHeader)[ctx.config.DEVICE_COOKIE_NAME] : undefined;
}

/** The presented cookie's credential when it is a trusted device of `userId` (signature, owner, current secret). */
export async function presentedDevice(ctx: AuthContext, cookie: string | undefined, userId: string): Promise<DeviceCredential | undefined> {
  const c = ctx.devices.open(cookie);
  if (!c || c.userId !== userId) return undefined;
  return (await deviceRepository.isTrusted(ctx.pg, c.deviceId, userId, deviceSecretHash(c.secret))) ? c : undefined;
}

/**
 * After a login (or a mailbox proof): the presented trusted device gets a new secret (rotation on use), or a new
 * device is trusted (audited `device_trusted`). A rotation that lost a race to a parallel one trusts a new device.
 */
export async function trustDevice(
  ctx: AuthContext,
  userId: string,
  current: DeviceCredential | undefined,
  how: DeviceTrust,
  client: ClientInfo,
  now: Date,
): Promise<TrustedDevice> {
  if (current) {
    const next = ctx.devices.issue(userId, current.deviceId);
    const rotated = await deviceRepository.rotate(ctx.pg, {
      id: current.deviceId,
      userId,
      oldHash: deviceSecretHash(current.secret),
      newHash: deviceSecretHash(next.secret),
      ip: client.ip,
      userAgent: client.userAgent,
      now,
    });
    if (rotated) return { credential: next };
  }
  const fresh = ctx.devices.issue(userId);
  const created = await deviceRepository.create(ctx.pg, {
    id: fresh.deviceId,
    userId,
    secretHash: deviceSecretHash(fresh.secret),
    ip: client.ip,
    userAgent: client.userAgent,
    trustedBy: how,
    now,
  });
  // the user was deleted meanwhile (with the session this login just wrote): as for a user who never was
  if (!created) throw errors.invalidCredentials();
  const actor: Actor = { user: userId, ip: client.ip, userAgent: client.userAgent, origin: client.origin };
  await enqueueOutbox(ctx.pg, audit('device_trusted', deviceAuditItem(userId, fresh.deviceId), actor, now, 'vellum_devices'));
  return { credential: fresh };
}

/**
 * The owner's way back: a valid, unused password-reset or invitation token (the mailbox is proven) trusts the
 * browser that opened the link, without using the token up. Anything else → the token's own error.
 */
export async function trustDeviceByLink(ctx: AuthContext, token: string, client: ClientInfo): Promise<TrustedDevice> {
  const now = ctx.clock.now();
  let claims: { id: string; fp: string };
  let how: DeviceTrust = 'password_reset';
  try {
    claims = ctx.tokens.verifyReset(token, now);
  } catch (e) {
    if (!(e instanceof AppError && e.code === 'FORBIDDEN')) throw e;
    claims = ctx.tokens.verifyInvite(token, now);
    how = 'invite';
  }
  const user = await ctx.db.user.findUnique({ where: { id: claims.id } });
  if (!user || passwordFingerprint(user.password) !== claims.fp) throw errors.forbidden();
  return trustDevice(ctx, user.id, undefined, how, client, now);
}

export const devicesUseCase = {
  async list(ctx: AuthContext, userId: string, cookie: string | undefined): Promise<PresentedDevice[]> {
    const current = ctx.devices.open(cookie)?.deviceId;
    return (await deviceRepository.list(ctx.db, userId)).map((d) => ({
      id: d.id,
      trusted_by: d.trusted_by,
      created: d.created_at.toISOString(),
      last_used: d.last_used_at.toISOString(),
      ip: d.ip,
      user_agent: d.user_agent,
      current: d.id === current,
    }));
  },

  /** Forgets a device: its cookie is untrusted from now on (audited `device_revoked`). Unknown → 403. */
  async revoke(ctx: AuthContext, userId: string, deviceId: string, actor: Actor): Promise<void> {
    if (!isUuid(deviceId) || !(await deviceRepository.remove(ctx.db, userId, deviceId))) throw errors.forbidden();
    await enqueueOutbox(ctx.pg, audit('device_revoked', deviceAuditItem(userId, deviceId), actor, ctx.clock.now(), 'vellum_devices'));
  },

  /** An admin's unlock: the user's untrusted, TOTP and device buckets start again (audited `unlock`). */
  async unlock(ctx: AuthContext, userId: string, actor: Actor): Promise<void> {
    const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
    if (!user) throw errors.forbidden();
    await ctx.buckets.clear(accountKey(user.email ?? ''), await deviceRepository.ids(ctx.db, userId));
    // deleted meanwhile: as for a missing user
    if ((await ctx.db.user.updateMany({ where: { id: userId }, data: { failed_login_attempts: 0 } })).count === 0) throw errors.forbidden();
    await enqueueOutbox(ctx.pg, audit('unlock', `${userId}:all`, actor, ctx.clock.now(), 'vellum_devices'));
  },
};
