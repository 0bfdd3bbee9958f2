import { randomBytes, randomUUID } from 'node:crypto';
import { itemChange, systemActor } from './auth-messages';
import { enqueue } from '../data/outbox.repository';
import { publishAllRoleAccess } from './access-rules';
import { syncApiTokens } from './api-tokens.use-case';
import type { AuthContext } from './context';
import { presentRole, presentUser } from './presenters';

/**
 * First start with an empty database: the admin role and user from ADMIN_EMAIL/ADMIN_PASSWORD (a generated
 * password is logged once). Every start: the whole access-rules map and API-tokens map are republished.
 */
export async function bootstrap(ctx: AuthContext): Promise<{ created: boolean; email?: string; password?: string }> {
  const now = ctx.clock.now();
  const empty = (await ctx.db.user.count()) === 0 && (await ctx.db.role.count()) === 0;
  let result: { created: boolean; email?: string; password?: string } = { created: false };
  if (empty) {
    const email = ctx.config.ADMIN_EMAIL ?? 'admin@example.com';
    const generated = !ctx.config.ADMIN_PASSWORD;
    const password = ctx.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
    const hash = await ctx.hasher.hash(password);
    result = await ctx.db.$transaction(async (tx) => {
      // another replica may have bootstrapped meanwhile
      await tx.$executeRaw`LOCK TABLE "roles" IN EXCLUSIVE MODE`;
      if ((await tx.role.count()) > 0 || (await tx.user.count()) > 0) return { created: false };
      const role = await tx.role.create({ data: { id: randomUUID(), name: 'Administrator', icon: 'verified', admin_access: true, app_access: true } });
      const user = await tx.user.create({ data: { id: randomUUID(), email, password: hash, role_id: role.id, status: 'active' } });
      await enqueue(tx, [
        itemChange('vellum_roles', 'create', role.id, presentRole(role), systemActor, now),
        itemChange('vellum_users', 'create', user.id, presentUser(user), systemActor, now),
      ]);
      return { created: true, email, password: generated ? password : undefined };
    });
    if (result.created) {
      if (result.password) ctx.logger.warn({ email }, `Created the admin user ${email} with the generated password: ${result.password}`);
      else ctx.logger.info({ email }, 'Created the admin user');
    }
  }
  await ctx.db.$transaction(async (tx) => {
    await publishAllRoleAccess(tx, now);
    await syncApiTokens(tx, 'all', now, systemActor);
  });
  return result;
}
