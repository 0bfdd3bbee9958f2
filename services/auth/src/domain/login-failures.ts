import { loginRepository } from '../data/login.repository';
import type { LoginAccount } from '../data/user.repository';
import { audit, type Actor } from './auth-messages';
import type { AuthContext, ClientInfo } from './context';
import { hashedDeviceId } from './device-cookie';
import type { LoginBucket } from './login-buckets';

export interface LoginFailure {
  /** The account tried; null for an unknown e-mail. */
  user: Pick<LoginAccount, 'id'> | null;
  /** The password bucket this failure counts in (none: a locked bucket, an inactive account, a TOTP failure). */
  bucket?: LoginBucket;
  /** The trusted device it came from, if any. */
  device?: string;
  /** A wrong TOTP code, and whether it locked the account's TOTP budget. */
  otp?: { locked: boolean };
  client: ClientInfo;
  now: Date;
}

/** Where device-related audit rows are filed: `vellum_devices`, item `<user>:<hashed device id | untrusted | otp>`. */
export const deviceAuditItem = (userId: string, device: string | undefined) => `${userId}:${device ? hashedDeviceId(device) : 'untrusted'}`;

/**
 * A failed login: counted in its bucket (the bucket's lock, when this failure sets it, is audited and logged), in
 * the user's consecutive failures, and audited (`login_failed`: the user, the hashed device or `untrusted`, the
 * address) — one statement for the row and the events.
 */
export async function recordLoginFailure(ctx: AuthContext, f: LoginFailure): Promise<void> {
  const actor: Actor = { user: null, ip: f.client.ip, userAgent: f.client.userAgent, origin: f.client.origin };
  const locked = f.bucket ? await ctx.buckets.failed(f.bucket) : false;
  if (!f.user) {
    await loginRepository.recordFailure(ctx.pg, { userId: null, count: false, events: [audit('login_failed', null, actor, f.now)] });
    return;
  }
  const item = deviceAuditItem(f.user.id, f.device);
  const events = [audit('login_failed', item, actor, f.now, 'vellum_devices')];
  if (locked) events.push(audit('lockout', item, actor, f.now, 'vellum_devices'));
  if (f.otp?.locked) events.push(audit('lockout', `${f.user.id}:otp`, actor, f.now, 'vellum_devices'));
  await loginRepository.recordFailure(ctx.pg, { userId: f.user.id, count: Boolean(f.bucket || f.otp), events });
  if (locked || f.otp?.locked) {
    const what = f.otp?.locked ? 'TOTP codes' : f.device ? 'a trusted device' : 'untrusted clients';
    ctx.logger.warn({ user: f.user.id, what }, 'failed logins locked a bucket until its window ends');
  }
}
