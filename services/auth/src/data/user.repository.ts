import type { Pool } from 'pg';
import type { Db, Role, Tx, User } from './prisma';

export type UserWithRole = User & { role: Role | null };

type Row = User & { r_id: string | null; r_name: string; r_icon: string; r_description: string | null; r_admin_access: boolean; r_app_access: boolean; r_enforce_tfa: boolean };

// Columns listed (not u.*): a column added to the table later must not reach the User type unannounced.
const FIND_BY_EMAIL = `
  SELECT u."id", u."first_name", u."last_name", u."email", u."password", u."status", u."role_id", u."title",
         u."description", u."language", u."provider", u."external_identifier", u."tfa_secret", u."tfa_pending_secret",
         u."tfa_last_step", u."last_access", u."failed_login_attempts", u."created_at",
         r."id" AS r_id, r."name" AS r_name, r."icon" AS r_icon, r."description" AS r_description,
         r."admin_access" AS r_admin_access, r."app_access" AS r_app_access, r."enforce_tfa" AS r_enforce_tfa
    FROM "users" u LEFT JOIN "roles" r ON r."id" = u."role_id"
   WHERE lower(u."email") = lower($1) LIMIT 1`;

/** What a password login reads of its account: the checks it makes and the claims of the tokens it issues. */
export type LoginAccount = Pick<User, 'id' | 'password' | 'status' | 'provider' | 'role_id' | 'tfa_secret'> & {
  role: Pick<Role, 'app_access' | 'admin_access' | 'enforce_tfa'> | null;
};

type LoginRow = Omit<LoginAccount, 'role'> & { admin_access: boolean | null; app_access: boolean | null; enforce_tfa: boolean | null };

// Only the columns a login reads (9 of 25: every column is decoded and every timestamp parsed into a Date by pg).
const FIND_FOR_LOGIN = `
  SELECT u."id", u."password", u."status", u."provider", u."role_id", u."tfa_secret",
         r."admin_access", r."app_access", r."enforce_tfa"
    FROM "users" u LEFT JOIN "roles" r ON r."id" = u."role_id"
   WHERE lower(u."email") = lower($1) LIMIT 1`;

export const userRepository = {
  /** The login's lookup: findByEmail's row (case-insensitive, with the role's flags) narrowed to what a login reads. */
  async findForLogin(pg: Pick<Pool, 'query'>, email: string): Promise<LoginAccount | null> {
    const { rows } = await pg.query<LoginRow>({ name: 'auth_login_account', text: FIND_FOR_LOGIN, values: [email] });
    const r = rows[0];
    if (!r) return null;
    // the role's flags are NOT NULL columns: null only when the LEFT JOIN found no role
    const role = r.app_access === null ? null : { admin_access: r.admin_access!, app_access: r.app_access, enforce_tfa: r.enforce_tfa! };
    return { id: r.id, password: r.password, status: r.status, provider: r.provider, role_id: r.role_id, tfa_secret: r.tfa_secret, role };
  },
  /**
   * Case-insensitive e-mail lookup (the unique index is on lower(email)), with the role, in one query. Plain `pg`
   * with a named (prepared once per connection) statement: this is the login hot path.
   */
  async findByEmail(pg: Pick<Pool, 'query'>, email: string): Promise<UserWithRole | null> {
    const { rows } = await pg.query<Row>({ name: 'auth_user_by_email', text: FIND_BY_EMAIL, values: [email] });
    const row = rows[0];
    if (!row) return null;
    const { r_id, r_name, r_icon, r_description, r_admin_access, r_app_access, r_enforce_tfa, ...user } = row;
    const role = r_id
      ? { id: r_id, name: r_name, icon: r_icon, description: r_description, admin_access: r_admin_access, app_access: r_app_access, enforce_tfa: r_enforce_tfa }
      : null;
    return { ...(user as User), role };
  },
  findById(db: Db | Tx, id: string): Promise<UserWithRole | null> {
    return db.user.findUnique({ where: { id }, include: { role: true } });
  },
};
