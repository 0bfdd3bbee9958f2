import { defineSchema } from '@vellum/query';

/**
 * What the query language may read of the auth service's tables (`GET /users`, `/roles`, `/permissions`): the fields
 * of the API shape (presenters.ts) and nothing else. The password hash and the TFA secret are `concealed`: `*` shows
 * only whether they are set ("**********" or null), and naming them anywhere is 403 like an unknown field. Token
 * hashes, pending TFA secrets, lock counters and sessions are not in the schema at all (403 by name).
 * `search` covers the names, e-mail, title and description of users, the name and description of roles, and the
 * collection and action of permissions (plus `id` when the term is a number).
 */
export const authQuerySchema = defineSchema({
  users: {
    name: 'users',
    table: 'users',
    primaryKey: 'id',
    fields: {
      id: { type: 'uuid' },
      first_name: { type: 'string' },
      last_name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string', concealed: true },
      status: { type: 'string', searchable: false },
      role: { type: 'uuid', column: 'role_id', relation: 'roles' },
      title: { type: 'string' },
      description: { type: 'text' },
      language: { type: 'string', searchable: false },
      provider: { type: 'string', searchable: false },
      external_identifier: { type: 'string', searchable: false },
      tfa_secret: { type: 'string', concealed: true },
      last_access: { type: 'timestamp' },
    },
  },
  roles: {
    name: 'roles',
    table: 'roles',
    primaryKey: 'id',
    fields: {
      id: { type: 'uuid' },
      name: { type: 'string' },
      icon: { type: 'string', searchable: false },
      description: { type: 'text' },
      admin_access: { type: 'boolean' },
      app_access: { type: 'boolean' },
      enforce_tfa: { type: 'boolean' },
    },
  },
  permissions: {
    name: 'permissions',
    table: 'permissions',
    primaryKey: 'id',
    fields: {
      id: { type: 'integer' },
      role: { type: 'uuid', column: 'role_id', relation: 'roles' },
      collection: { type: 'string' },
      action: { type: 'string' },
      fields: { type: 'json' },
      permissions: { type: 'json' },
      validation: { type: 'json' },
      presets: { type: 'json' },
    },
  },
});

export type AuthEntity = 'users' | 'roles' | 'permissions';
