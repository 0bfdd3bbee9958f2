/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the contract's response bodies (§2–§7) and of the gateway's own
 * GraphQL request. Request bodies of the services are generated from their zod schemas (`requestBodies` of
 * @vellum/contracts, the objects the services validate with): see openapi.ts.
 */
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
  Tokens: data({
    type: 'object',
    required: ['expires'],
    properties: { expires: { type: 'integer', description: 'milliseconds' }, access_token: str, refresh_token: str },
  }),
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
  Session: {
    type: 'object',
    required: ['id', 'created', 'last_used', 'expires', 'current'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      created: { type: 'string', format: 'date-time' },
      last_used: { type: 'string', format: 'date-time', description: 'the login or the latest refresh' },
      expires: { type: 'string', format: 'date-time' },
      ip: nullable(str),
      user_agent: nullable(str),
      origin: nullable(str),
      current: { type: 'boolean', description: "the session of the request's own access token" },
    },
  },
  Device: {
    type: 'object',
    required: ['id', 'trusted_by', 'created', 'last_used', 'current'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      trusted_by: { type: 'string', enum: ['login', 'password_reset', 'invite'] },
      created: { type: 'string', format: 'date-time' },
      last_used: { type: 'string', format: 'date-time', description: 'the latest login from the device' },
      ip: nullable(str),
      user_agent: nullable(str),
      current: { type: 'boolean', description: "the device of the request's own device cookie" },
    },
  },
  ApiToken: {
    type: 'object',
    required: ['id', 'name', 'prefix', 'created', 'expires'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: str,
      prefix: { type: 'string', description: 'the visible start of the token (vlm_xxxxxxxx), or "static"' },
      role: nullable({ type: 'string', format: 'uuid' }),
      static: { type: 'boolean' },
      created: { type: 'string', format: 'date-time' },
      expires: nullable({ type: 'string', format: 'date-time' }),
      last_used: nullable({ type: 'string', format: 'date-time' }),
      token: { type: 'string', description: 'the secret: in the creation answer only' },
    },
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
      comment: { ...nullable(str), description: 'free text, e.g. why a scheduled promote failed (action promote_failed)' },
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
  Field: {
    type: 'object',
    required: ['field', 'type'],
    properties: {
      field: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
      type: {
        type: 'string',
        enum: ['integer', 'bigInteger', 'float', 'decimal', 'string', 'text', 'boolean', 'uuid', 'json', 'date', 'dateTime', 'timestamp'],
      },
      schema: { type: 'object', additionalProperties: true },
      meta: { type: 'object', additionalProperties: true },
    },
  },
  Relation: {
    type: 'object',
    required: ['collection', 'field'],
    properties: {
      collection: str,
      field: str,
      related_collection: nullable(str),
      meta: { type: 'object', additionalProperties: true },
      schema: nullable({ type: 'object', additionalProperties: true }),
    },
  },
  Version: {
    type: 'object',
    required: ['id', 'key', 'collection', 'item'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      key: str,
      name: nullable(str),
      collection: str,
      item: str,
      hash: str,
      date_created: str,
      user_created: nullable(str),
      date_updated: nullable(str),
      user_updated: nullable(str),
      delta: nullable({ type: 'object', additionalProperties: true }),
      publish_at: { ...nullable({ type: 'string', format: 'date-time' }), description: 'scheduled promote: when (null: none)' },
      publish_force: { type: 'boolean', description: 'scheduled promote even though the live item changed since' },
      publish_status: nullable({ type: 'string', enum: ['scheduled', 'done', 'failed'] }),
      publish_error: { ...nullable(str), description: 'why the scheduled promote failed' },
    },
  },
  Collection: {
    type: 'object',
    required: ['collection'],
    properties: {
      collection: { type: 'string', pattern: '^(?!vellum_)[a-z][a-z0-9_]*$' },
      fields: { type: 'array', items: { $ref: '#/components/schemas/Field' } },
    },
    additionalProperties: true,
  },
  Item: { type: 'object', additionalProperties: true },
  Health: {
    type: 'object',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['ok', 'warn', 'error'] },
      checks: {
        type: 'object',
        additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'warn', 'error'] }, reason: str } },
      },
    },
  },
  GraphQLRequest: { type: 'object', required: ['query'], properties: { query: str, variables: { type: 'object' }, operationName: str } },
  GraphQLResponse: { type: 'object', properties: { data: nullable({ type: 'object' }), errors: { type: 'array', items: { type: 'object' } } } },
};
