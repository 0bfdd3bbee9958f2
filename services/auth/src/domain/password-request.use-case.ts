import { randomUUID } from 'node:crypto';
import { errors } from '@vellum/errors';
import { userRepository } from '../data/user.repository';
import { tokenLinkMail } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext } from './context';
import { stallUntil } from './stall';

/** Allowed when the allow list has it exactly, or the same origin + path (the query string is ignored). */
export function isAllowedResetUrl(resetUrl: string, allowList: string[]): boolean {
  let u: URL;
  try {
    u = new URL(resetUrl);
  } catch {
    return false;
  }
  return allowList.some((entry) => {
    if (entry === resetUrl) return true;
    try {
      const a = new URL(entry);
      return a.origin === u.origin && a.pathname === u.pathname;
    } catch {
      return false;
    }
  });
}

/**
 * Queue a reset mail (outbox, same transaction as nothing else: the job is the only write). Answers the same,
 * after the same minimum time, whether or not the account exists. reset_url is checked before any lookup.
 */
export async function requestPasswordReset(ctx: AuthContext, email: string, resetUrl: string | undefined): Promise<void> {
  if (resetUrl !== undefined && !isAllowedResetUrl(resetUrl, ctx.config.PASSWORD_RESET_URL_ALLOW_LIST)) {
    throw errors.invalidPayload(`URL "${resetUrl}" can't be used to reset passwords`);
  }
  const started = performance.now();
  try {
    const now = ctx.clock.now();
    const user = await userRepository.findByEmail(ctx.pg, email);
    const eligible = !!user && user.status === 'active' && user.provider === 'default' && !!user.email;
    // the same signing work either way
    const token = ctx.tokens.signReset(
      { id: user?.id ?? randomUUID(), email: user?.email ?? email, password: user?.password ?? null },
      ctx.config.PASSWORD_RESET_TOKEN_TTL,
      now,
    );
    if (!eligible) return;
    const page = resetUrl ?? new URL('/admin/reset-password', ctx.config.PUBLIC_URL).toString();
    const data = user.first_name ? { name: user.first_name } : {};
    const message = tokenLinkMail({ template: 'password-reset', to: user.email!, page, token, data }, now);
    await ctx.db.$transaction((tx) => enqueue(tx, message));
  } finally {
    await stallUntil(started, ctx.config.LOGIN_STALL_TIME);
  }
}
