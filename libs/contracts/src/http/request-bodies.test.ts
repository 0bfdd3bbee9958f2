import { collectionRequestSchema, loginRequestSchema, requestBodies, requestBodyJsonSchema } from '../index';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('request body schemas', () => {
  it('every one has a JSON Schema (2020-12, what a client may send) for the OpenAPI document', () => {
    for (const [name, schema] of Object.entries(requestBodies)) {
      const json = requestBodyJsonSchema(schema);
      expect([name, json.$schema]).toEqual([name, undefined]);
      expect([name, json.type === 'object' || Array.isArray(json.anyOf)]).toEqual([name, true]);
    }
    expect(requestBodyJsonSchema(loginRequestSchema)).toMatchObject({
      type: 'object',
      required: ['email', 'password'],
      properties: {
        email: { type: 'string', pattern: expect.any(String) },
        mode: { anyOf: [{ enum: ['json', 'cookie', 'session'] }, { type: 'null' }] },
      },
    });
  });

  it('login: the first failing field in the order email, password, mode, otp; .local and localhost are valid', () => {
    expect(firstMessage(loginRequestSchema.safeParse(undefined))).toBe('"email" is required');
    expect(firstMessage(loginRequestSchema.safeParse({ email: 'nope', password: 1, mode: 'x' }))).toBe('"email" must be a valid email');
    expect(firstMessage(loginRequestSchema.safeParse({ email: 'a@b.local', password: 1, mode: 'x' }))).toBe('"password" must be a string');
    expect(firstMessage(loginRequestSchema.safeParse({ email: 'a@localhost', password: 'p', mode: 'x', otp: 1 }))).toBe(
      '"mode" must be one of [json, cookie, session]',
    );
    expect(loginRequestSchema.safeParse({ email: 'a@localhost', password: 'p', mode: null, otp: null }).success).toBe(true);
  });

  it('collections: unknown keys of the body, a field, its schema and meta are kept', () => {
    const body = {
      collection: 'a',
      x: 1,
      meta: { icon: 'i' },
      fields: [{ field: 'b', type: 'string', schema: { comment: 'c' }, meta: { note: 'n' } }],
    };
    expect(collectionRequestSchema.parse(body)).toEqual(body);
  });
});
