import { concealed, defineSchema, tableOf, unsearchable } from '@vellum/query';

/**
 * What the query language may read of the auth service's tables (`GET /users`, `/roles`, `/permissions`): the fields
 * of the API shape (presenters.ts) and nothing else. The password hash and the TFA secret are `concealed`: `*` shows
 * only whether they are set ("**********" or null), and naming them anywhere is 403 like an unknown field. Token
 * hashes, pending TFA secrets, lock counters and sessions are not in the schema at all (403 by name).
 * `search` covers the names, e-mail, title and description of users, the name and description of roles, and the
 * collection and action of permissions (plus `id` when the term is a number).
 */
export const authQuerySchema = defineSchema({
  users: tableOf('users', 'id', {
    id: 'uuid',
    first_name: 'string',
    last_name: 'string',
    email: 'string',
    password: concealed('string'),
    status: unsearchable('string'),
    role: { type: 'uuid', column: 'role_id', relation: 'roles' },
    title: 'string',
    description: 'text',
    language: unsearchable('string'),
    provider: unsearchable('string'),
    external_identifier: unsearchable('string'),
    tfa_secret: concealed('string'),
    last_access: 'timestamp',
  }),
  roles: tableOf('roles', 'id', {
    id: 'uuid',
    name: 'string',
    icon: unsearchable('string'),
    description: 'text',
    admin_access: 'boolean',
    app_access: 'boolean',
    enforce_tfa: 'boolean',
  }),
  permissions: tableOf('permissions', 'id', {
    id: 'integer',
    role: { type: 'uuid', column: 'role_id', relation: 'roles' },
    collection: 'string',
    action: 'string',
    fields: 'json',
    permissions: 'json',
    validation: 'json',
    presets: 'json',
  }),
});

export type AuthEntity = 'users' | 'roles' | 'permissions';
