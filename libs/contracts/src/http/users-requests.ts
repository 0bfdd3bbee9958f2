import { z } from 'zod';
import { ACTIONS } from '../access-rules';
import { EMAIL, UUID, nullableString, optionalBoolean, optionalString, requiredString, uuidOrNull, absentAsEmpty } from './body-fields';

// Users, roles and permissions (contract §4): unknown fields → 400 INVALID_PAYLOAD (`"<key>" is not allowed`).
// POST takes one object or an array of them. Password policies are the service's check (FAILED_VALIDATION).

export const USER_STATUSES = ['active', 'invited', 'suspended', 'archived'] as const;

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)], { error: '"body" must be an object or an array of objects' });

const userEmail = z.string({ error: '"email" must be a string or null' }).regex(EMAIL, { error: '"email" must be a valid email' }).nullable().optional();

const ownFields = {
  first_name: nullableString('first_name'),
  last_name: nullableString('last_name'),
  email: userEmail,
  title: nullableString('title'),
  description: nullableString('description'),
  language: nullableString('language'),
};

/** A user as an administrator writes it (`POST /users`, `PATCH /users/:id`). */
export const userSchema = z.strictObject({
  ...ownFields,
  password: nullableString('password'),
  status: z.enum(USER_STATUSES, { error: `"status" must be one of ${USER_STATUSES.join(', ')}` }).optional(),
  role: uuidOrNull('role'),
  provider: z.string({ error: '"provider" must be a string' }).optional(),
  external_identifier: nullableString('external_identifier'),
  /** The Directus static token: stored only as its SHA-256, usable as `Authorization: Bearer <token>`; null removes it. */
  token: z
    .string({ error: '"token" must be a string or null' })
    .min(16, { error: '"token" must be at least 16 characters' })
    .max(512, { error: '"token" must be at most 512 characters' })
    .regex(/^[\x21-\x7e]+$/, { error: '"token" must be printable ASCII without spaces' })
    .refine((t) => !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(t), { error: '"token" must not look like a JWT' })
    .nullable()
    .optional(),
});
export type UserInput = z.output<typeof userSchema>;
export const usersCreateSchema = oneOrMany(userSchema);

/** What users may change of themselves (`PATCH /users/me`): no role, status or provider. */
export const userSelfSchema = z.strictObject({
  ...ownFields,
  password: z.string({ error: '"password" must be a string' }).optional(),
});
export type UserSelfInput = z.output<typeof userSelfSchema>;

/** A role's name is how people pick it (the app's lists and menus): not empty, not only spaces. */
const notBlank = (name: string) => (s: z.ZodString) => s.refine((v) => v.trim() !== '', { error: `"${name}" must not be empty` });

const roleFields = {
  name: notBlank('name')(z.string({ error: '"name" must be a string' })),
  icon: z.string({ error: '"icon" must be a string' }).optional(),
  description: nullableString('description'),
  admin_access: optionalBoolean('admin_access'),
  app_access: optionalBoolean('app_access'),
  enforce_tfa: optionalBoolean('enforce_tfa'),
};
/** `POST /roles`: `name` required. */
export const roleSchema = z.strictObject({ ...roleFields, name: notBlank('name')(requiredString('name')) });
export type RoleInput = z.output<typeof roleSchema>;
export const rolesCreateSchema = oneOrMany(roleSchema);
/** `PATCH /roles/:id`. */
export const roleUpdateSchema = z.strictObject({ ...roleFields, name: roleFields.name.optional() });
export type RoleUpdateInput = z.output<typeof roleUpdateSchema>;

/**
 * Directus's item rules (`permissions` a row filter, `validation` a check on writes, `presets` default values) are not
 * enforced here: a permission grants its fields on every item of the collection. A rule given would be stored and
 * ignored — access wider than its author meant — so only "no rule" is taken: null, absent or `{}`.
 */
const noItemRule = (name: string) =>
  z
    .unknown()
    .refine((v) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0), {
      error: `"${name}" must be null or {}: item rules are not supported (a permission applies to every item of its collection)`,
    })
    .optional();

const permissionFields = {
  collection: z.string({ error: '"collection" must be a string' }),
  action: z.enum(ACTIONS, {
    error: (iss) => (iss.input === undefined || iss.input === null ? '"action" is required' : `"action" must be one of ${ACTIONS.join(', ')}`),
  }),
  role: uuidOrNull('role'),
  /** `["*"]`, a list of field names, or a comma list; null means all. */
  fields: z
    .union([z.array(z.string()), z.string()], {
      error: '"fields" must be an array of strings, a comma list or null',
    })
    .nullable()
    .optional(),
  permissions: noItemRule('permissions'),
  validation: noItemRule('validation'),
  presets: noItemRule('presets'),
};
/** `POST /permissions`: `collection` and `action` required. */
export const permissionSchema = z.strictObject({
  ...permissionFields,
  collection: requiredString('collection'),
});
export type PermissionInput = z.output<typeof permissionSchema>;
export const permissionsCreateSchema = oneOrMany(permissionSchema);
/** `PATCH /permissions/:id`. */
export const permissionUpdateSchema = z.strictObject({
  ...permissionFields,
  collection: permissionFields.collection.optional(),
  action: permissionFields.action.optional(),
});
export type PermissionUpdateInput = z.output<typeof permissionUpdateSchema>;

const inviteEmail = z.string({ error: '"email" must be a valid email' }).regex(EMAIL, { error: '"email" must be a valid email' });

/** `POST /users/invite`: one address or several, the role (uuid), an optional `invite_url` (allow list checked by auth). */
export const inviteSchema = z.strictObject({
  email: z.union([inviteEmail, z.array(inviteEmail).min(1, { error: '"email" is required' })], {
    error: (iss) => (iss.input === undefined || iss.input === null ? '"email" is required' : '"email" must be a valid email'),
  }),
  role: requiredString('role').regex(UUID, { error: '"role" must be a uuid' }),
  invite_url: optionalString('invite_url'),
});
export type InviteRequest = z.output<typeof inviteSchema>;

/** `POST /users/invite/accept` (the token is the credential; no body reads as `{}`). */
export const inviteAcceptSchema = absentAsEmpty(z.object({ token: requiredString('token'), password: requiredString('password') }));
export type InviteAcceptRequest = z.output<typeof inviteAcceptSchema>;

/** `POST /users/me/tokens` (and `/users/:id/tokens`): a name, an expiry (required), an optional narrower role. */
export const apiTokenCreateSchema = z.strictObject({
  name: requiredString('name').min(1, { error: '"name" is required' }).max(100, { error: '"name" must be at most 100 characters' }),
  expires: requiredString('expires').datetime({ offset: true, error: '"expires" must be an ISO 8601 date-time' }),
  role: uuidOrNull('role'),
});
export type ApiTokenCreateRequest = z.output<typeof apiTokenCreateSchema>;
