import { randomUUID } from 'node:crypto';
import { errors } from '@vellum/errors';
import type { InviteRequest } from '@vellum/contracts';
import { isMissingReference, isUniqueViolation, type Tx } from '../data/prisma';
import { itemChange, tokenLinkMail, type Actor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import type { AuthContext, ClientInfo } from './context';
import { isAllowedResetUrl } from './password-request.use-case';
import { checkPasswordPolicy } from './password-policy';
import { presentUser } from './presenters';
import { passwordFingerprint } from './token-issuer';

export interface InviteInput {
  emails: string[];
  role: string;
  inviteUrl?: string;
}

/** A validated `POST /users/invite` body (`inviteSchema`) → the input; invite_url checked against USER_INVITE_URL_ALLOW_LIST. */
export function parseInvite(ctx: AuthContext, b: InviteRequest): InviteInput {
  const inviteUrl = b.invite_url ?? undefined;
  if (inviteUrl !== undefined && !isAllowedResetUrl(inviteUrl, ctx.config.USER_INVITE_URL_ALLOW_LIST)) {
    throw errors.invalidPayload(`URL "${inviteUrl}" can't be used to invite users`);
  }
  return { emails: Array.isArray(b.email) ? b.email : [b.email], role: b.role, inviteUrl };
}

/**
 * Create an `invited` user per address (or keep the invited one: re-inviting sends a fresh link) and queue the
 * invitation mail through the outbox in the same transaction. Addresses of users who are not `invited` any more
 * are skipped (no mail), as Directus does.
 */
export async function inviteUsers(ctx: AuthContext, input: InviteInput, actor: Actor): Promise<void> {
  const role = await ctx.db.role.findUnique({ where: { id: input.role } });
  if (!role) throw errors.invalidPayload('"role" does not exist');
  const now = ctx.clock.now();
  for (const email of input.emails) {
    const once = () => ctx.db.$transaction((tx) => inviteOne(ctx, tx, email, input, actor, now));
    try {
      // a concurrent invite/creation of the same address won: invite again (now the user exists)
      await once().catch((e: unknown) => (isUniqueViolation(e) ? once() : Promise.reject(e)));
    } catch (e) {
      // the role was deleted since it was read: as if it never existed (nothing of this address written)
      throw isMissingReference(e) ? errors.invalidPayload('"role" does not exist') : e;
    }
  }
}

async function inviteOne(ctx: AuthContext, tx: Tx, email: string, input: InviteInput, actor: Actor, now: Date): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "users" WHERE lower("email") = lower(${email}) FOR UPDATE`;
  let user = rows[0] ? await tx.user.findUniqueOrThrow({ where: { id: rows[0].id } }) : null;
  if (user && user.status !== 'invited') return;
  if (!user) {
    user = await tx.user.create({ data: { id: randomUUID(), email, status: 'invited', role_id: input.role } });
    await enqueue(tx, itemChange('vellum_users', 'create', user.id, presentUser(user), actor, now));
  }
  const token = ctx.tokens.signInvite({ id: user.id, email: user.email!, password: user.password }, ctx.config.USER_INVITE_TOKEN_TTL, now);
  const page = input.inviteUrl ?? new URL('/admin/accept-invite', ctx.config.PUBLIC_URL).toString();
  const data = { project: ctx.config.PROJECT_NAME, ...(user.first_name ? { name: user.first_name } : {}) };
  await enqueue(tx, tokenLinkMail({ template: 'user-invitation', to: user.email!, page, token, data }, now));
}

/**
 * Activate an invited user with a password. Single use: the token is bound to the invited user's (empty)
 * password hash and the update is a compare-and-set on status `invited` + that hash.
 */
export async function acceptInvite(ctx: AuthContext, token: string, password: string, client: ClientInfo): Promise<void> {
  const now = ctx.clock.now();
  const claims = ctx.tokens.verifyInvite(token, now);
  const user = await ctx.db.user.findUnique({ where: { id: claims.id } });
  if (!user || user.status !== 'invited' || passwordFingerprint(user.password) !== claims.fp) throw errors.forbidden();
  checkPasswordPolicy(password, ctx.config.AUTH_PASSWORD_POLICY);
  const hash = await ctx.hasher.hash(password);
  const actor = { user: user.id, ip: client.ip, userAgent: client.userAgent, origin: client.origin };
  await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id: user.id, status: 'invited', password: user.password },
      data: { password: hash, status: 'active' },
    });
    if (count !== 1) throw errors.forbidden();
    const updated = await tx.user.findUniqueOrThrow({ where: { id: user.id } });
    await enqueue(tx, itemChange('vellum_users', 'update', user.id, presentUser(updated), actor, now));
  });
}
