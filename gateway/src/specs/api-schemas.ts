/** JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the contract's bodies (§2–§7). */
type Schema = Record<string, unknown>;

const str = { type: 'string' };
const nullable = (s: Schema) => ({ anyOf: [s, { type: 'null' }] });
const data = (s: Schema) => ({ type: 'object', required: ['data'], properties: { data: s } });

export const schemas: Record<string, Schema> = {
  Error: {
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['message', 'extensions'],
          properties: {
            message: str,
            extensions: { type: 'object', required: ['code'], properties: { code: str }, additionalProperties: true },
          },
        },
      },
    },
  },
  AuthMode: { type: 'string', enum: ['json', 'cookie', 'session'] },
  LoginRequest: {
    type: 'object',
    required: ['email', 'password'],
    properties: { email: { type: 'string', format: 'email' }, password: str, mode: { $ref: '#/components/schemas/AuthMode' }, otp: str },
  },
  RefreshRequest: { type: 'object', properties: { refresh_token: str, mode: { $ref: '#/components/schemas/AuthMode' } } },
  Tokens: data({
    type: 'object',
    required: ['expires'],
    properties: { expires: { type: 'integer', description: 'milliseconds' }, access_token: str, refresh_token: str },
  }),
  PasswordRequest: { type: 'object', required: ['email'], properties: { email: str, reset_url: str } },
  PasswordReset: { type: 'object', required: ['token', 'password'], properties: { token: str, password: str } },
  ProviderKeys: { type: 'object', properties: { public: { type: 'boolean' }, data: { type: 'array', items: str } } },
  Providers: {
    type: 'object',
    properties: {
      data: { type: 'array', items: { type: 'object', properties: { name: str, driver: str, label: str, icon: nullable(str) } } },
      disableDefault: { type: 'boolean' },
    },
  },
  TfaGenerate: data({ type: 'object', required: ['secret', 'otpauth_url'], properties: { secret: str, otpauth_url: str } }),
  User: {
    type: 'object',
    properties: {
      id: { type: 'string', format: 'uuid' },
      email: str,
      first_name: nullable(str),
      last_name: nullable(str),
      role: nullable(str),
      status: { type: 'string', enum: ['active', 'invited', 'suspended', 'archived'] },
      tfa_secret: nullable(str),
      provider: str,
    },
    additionalProperties: true,
  },
  Role: { type: 'object', properties: { id: str, name: str, admin_access: { type: 'boolean' }, app_access: { type: 'boolean' } }, additionalProperties: true },
  Permission: {
    type: 'object',
    required: ['collection', 'action'],
    properties: {
      id: { type: 'integer' },
      role: nullable(str),
      collection: str,
      action: { type: 'string', enum: ['create', 'read', 'update', 'delete'] },
      fields: { type: 'array', items: str },
    },
  },
  Invite: { type: 'object', required: ['email', 'role'], properties: { email: str, role: str, invite_url: str } },
  InviteAccept: { type: 'object', required: ['token', 'password'], properties: { token: str, password: str } },
  Activity: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      action: str,
      user: nullable(str),
      timestamp: { type: 'string', format: 'date-time' },
      ip: nullable(str),
      user_agent: nullable(str),
      collection: str,
      item: str,
      origin: nullable(str),
    },
  },
  Revision: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      activity: { anyOf: [{ type: 'integer' }, { $ref: '#/components/schemas/Activity' }] },
      collection: str,
      item: str,
      data: nullable({ type: 'object' }),
      delta: nullable({ type: 'object' }),
      parent: nullable({ type: 'integer' }),
      version: nullable(str),
    },
  },
  Meta: { type: 'object', properties: { total_count: { type: 'integer' }, filter_count: { type: 'integer' } } },
  Query: {
    type: 'object',
    description: 'The query language of contract §5 (fields, filter, search, sort, limit, offset, page, meta, aggregate, groupBy).',
    properties: {
      fields: { type: 'array', items: str },
      filter: { type: 'object' },
      search: str,
      sort: { type: 'array', items: str },
      limit: { type: 'integer', minimum: -1 },
      offset: { type: 'integer', minimum: 0 },
      page: { type: 'integer', minimum: 1 },
      meta: str,
      aggregate: { type: 'object' },
      groupBy: { type: 'array', items: str },
    },
  },
  Field: {
    type: 'object',
    required: ['field', 'type'],
    properties: {
      field: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
      type: { type: 'string', enum: ['integer', 'bigInteger', 'float', 'decimal', 'string', 'text', 'boolean', 'uuid', 'json', 'date', 'dateTime', 'timestamp'] },
      schema: { type: 'object', additionalProperties: true },
      meta: { type: 'object', additionalProperties: true },
    },
  },
  Collection: {
    type: 'object',
    required: ['collection'],
    properties: { collection: { type: 'string', pattern: '^(?!vellum_)[a-z][a-z0-9_]*$' }, fields: { type: 'array', items: { $ref: '#/components/schemas/Field' } } },
    additionalProperties: true,
  },
  Item: { type: 'object', additionalProperties: true },
  BulkUpdate: { type: 'object', required: ['keys', 'data'], properties: { keys: { type: 'array' }, data: { type: 'object' } } },
  Health: {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { type: 'string', enum: ['ok', 'warn', 'error'] },
      checks: { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'warn', 'error'] }, reason: str } } },
    },
  },
  GraphQLRequest: { type: 'object', required: ['query'], properties: { query: str, variables: { type: 'object' }, operationName: str } },
  GraphQLResponse: { type: 'object', properties: { data: nullable({ type: 'object' }), errors: { type: 'array', items: { type: 'object' } } } },
};
