import request from 'supertest';
import { Router } from 'express';
import { z } from 'zod';
import { isAppError } from '@vellum/errors';
import { createServiceApp, finishServiceApp, parseBody, route, type RouteTable } from './index';

const reason = (schema: z.ZodType, body: unknown): string | undefined => {
  try {
    parseBody(schema, body);
    return undefined;
  } catch (e) {
    if (!isAppError(e)) throw e;
    expect(e.code).toBe('INVALID_PAYLOAD');
    return (e.extensions as { reason: string }).reason;
  }
};

describe('parseBody', () => {
  const user = z.strictObject({ email: z.string(), admin: z.boolean().optional(), tags: z.array(z.string()).optional() });

  it('returns the parsed body', () => {
    expect(parseBody(user, { email: 'a@b.c' })).toEqual({ email: 'a@b.c' });
  });

  it('words issues without a message of their own in the house style, first issue in declaration order', () => {
    expect(reason(user, undefined)).toBe('"body" must be an object');
    expect(reason(user, [])).toBe('"body" must be an object');
    expect(reason(user, {})).toBe('"email" is required');
    expect(reason(user, { email: 5, admin: 'x' })).toBe('"email" must be a string');
    expect(reason(user, { email: 'x', admin: 'x' })).toBe('"admin" must be a boolean');
    expect(reason(user, { email: 'x', tags: [1] })).toBe('"tags.0" must be a string');
    expect(reason(user, { email: 'x', nope: 1 })).toBe('"nope" is not allowed');
    expect(reason(z.object({ mode: z.enum(['a', 'b']) }), { mode: 'c' })).toBe('"mode" must be one of a, b');
  });

  it("keeps the schema's own messages and fills in {sibling} values", () => {
    const field = z.object({ field: z.string(), type: z.enum(['a'], { error: 'field {field}: type must be a' }) });
    expect(
      reason(z.object({ fields: z.array(field) }), {
        fields: [
          { field: 'x', type: 'a' },
          { field: 'y', type: 'b' },
        ],
      }),
    ).toBe('field "y": type must be a');
    expect(reason(z.string({ error: 'custom' }), 5)).toBe('custom');
  });

  it('reports the issue of the union option whose type matched the input', () => {
    const one = z.strictObject({ a: z.string() });
    const oneOrMany = z.union([one, z.array(one)], { error: 'one or many' });
    expect(reason(oneOrMany, { a: 1 })).toBe('"a" must be a string');
    expect(reason(oneOrMany, [{ a: 'x' }, { a: 1 }])).toBe('"1.a" must be a string');
    expect(reason(oneOrMany, 'x')).toBe('one or many');
  });
});

describe('route(…, { body })', () => {
  const schema = z.object({ n: z.number() });
  const app = createServiceApp();
  const router = Router() as Router & RouteTable;
  route(router, 'post', '/n', 'public', { body: schema }, (req, res) => res.json({ data: req.body }));
  route(router, 'post', '/free', 'public', (req, res) => res.json({ data: req.body ?? null }));
  route(router, 'post', '/admin', 'admin', { body: schema }, (_req, res) => res.json({ data: 'ok' }));
  app.use(router);
  finishServiceApp(app, { error: jest.fn(), warn: jest.fn() });

  it('records the schema in the route table (only where declared)', () => {
    expect(router.routes).toEqual([
      { method: 'post', path: '/n', access: 'public', body: schema },
      { method: 'post', path: '/free', access: 'public' },
      { method: 'post', path: '/admin', access: 'admin', body: schema },
    ]);
  });

  it('validates the body with it: 400 INVALID_PAYLOAD with the reason, else the parsed body reaches the handler', async () => {
    const bad = await request(app).post('/n').send({ n: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].extensions).toEqual({ code: 'INVALID_PAYLOAD', reason: '"n" must be a number' });
    expect((await request(app).post('/n').send({ n: 1, extra: true })).body).toEqual({ data: { n: 1 } });
    expect((await request(app).post('/free').send({ n: 'x' })).body).toEqual({ data: { n: 'x' } });
  });

  it('checks access before the body', async () => {
    expect((await request(app).post('/admin').send({ n: 'x' })).status).toBe(403);
  });
});
