import { Client } from 'pg';
import request from 'supertest';
import { loadCollection } from '../src/data/catalogue.repository';
import { createTokenVerifier } from '@vellum/tokens';
import { CatalogueCache, createApp, createPrisma, type CatalogueSource } from '../src';
import type { CollectionDef } from '../src/domain/collection';
import type { ItemsDeps } from '../src/domain/items-deps';
import { createItems } from '../src/domain/create-items.use-case';
import { readItemsText } from '../src/domain/read-items.use-case';
import { updateItems } from '../src/domain/update-items.use-case';
import { harness, type Harness } from './helpers';

// Reads take collection definitions from memory (catalogue-cache.ts): these show the kept copy never outlives a change.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const send = (method: 'post' | 'patch' | 'delete', url: string, body?: object) => {
  const r = request(h.app);
  return r[method](url)
    .set(bearer(h.admin))
    .send(body ?? {});
};
const admin = { user: 'u', role: null, admin: true, app: true };
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

beforeAll(async () => {
  h = await harness();
  expect((await send('post', '/collections', { collection: 'notes', fields: [{ field: 'title', type: 'string' }] })).status).toBe(200);
  expect((await send('post', '/items/notes', [{ title: 'a' }, { title: 'b' }])).status).toBe(200);
});
afterAll(() => h.close());

it('a schema change made by this process is seen by the very next read (the kept definitions are dropped before it answers)', async () => {
  // an app whose cache hears no NOTIFY (another channel): only its own schema changes can drop what it keeps
  const deaf = new CatalogueCache();
  await deaf.listen({ connectionString: h.db.url, logger: { warn: () => undefined }, channel: 'vellum_test_nobody_notifies' });
  const prisma = createPrisma(h.db.url, 1);
  const { listener } = createApp({ pool: h.pool, prisma, rules: h.rules, catalogue: deaf, verifier: createTokenVerifier(h.keys.keySource), logger: quiet });
  const call = (method: 'get' | 'post' | 'delete', url: string, body?: object) => request(listener)[method](url).set(bearer(h.admin)).send(body);
  try {
    expect(Object.keys((await call('get', '/items/notes?limit=1')).body.data[0])).toEqual(['id', 'title']); // the definition is now kept
    expect((await call('post', '/fields/notes', { field: 'stars', type: 'integer', schema: { default_value: 3 } })).status).toBe(200);
    expect((await call('get', '/items/notes?limit=1&sort=id')).body.data[0]).toEqual({ id: 1, title: 'a', stars: 3 });
    expect((await call('delete', '/fields/notes/stars')).status).toBe(204);
    expect((await call('get', '/items/notes?limit=1&sort=id')).body.data[0]).toEqual({ id: 1, title: 'a' });
  } finally {
    await deaf.stop();
    await prisma.$disconnect();
  }
});

it("another process's schema change reaches this one's kept definitions through the catalogue's NOTIFY", async () => {
  const other = new CatalogueCache();
  await other.listen({ connectionString: h.db.url, logger: { warn: () => undefined } });
  try {
    expect((await other.get(h.pool, 'notes'))!.fields.map((f) => f.field)).toEqual(['id', 'title']);
    // a change this process's app makes, which `other` only learns of from PostgreSQL
    expect((await send('post', '/fields/notes', { field: 'tag', type: 'string' })).status).toBe(200);
    let fields: string[] = [];
    for (let i = 0; i < 200 && !fields.includes('tag'); i++) {
      fields = (await other.get(h.pool, 'notes'))!.fields.map((f) => f.field);
      if (!fields.includes('tag')) await new Promise((r) => setTimeout(r, 10));
    }
    expect(fields).toEqual(['id', 'title', 'tag']);
  } finally {
    await other.stop();
    await send('delete', '/fields/notes/tag');
  }
});

describe('a read over a definition made stale by another replica (its notice not arrived yet) is run again on a fresh one', () => {
  /** A source that answers the definition it was given, and the database's from `fresh()`. */
  const staleSource = (stale: CollectionDef): CatalogueSource => ({
    get: async (_db, name) => (name === stale.collection ? stale : undefined),
    getMany: async () => [],
    fresh: () => ({ get: (db, name) => loadCollection(db, name), getMany: async () => [] }),
  });
  const deps = (catalogue: CatalogueSource): ItemsDeps => ({ pool: h.pool, rules: h.rules, now: () => new Date(), limits: { limitDefault: 100 }, catalogue });

  it('a field added since: asking for it works', async () => {
    const before = (await loadCollection(h.pool, 'notes'))!;
    expect((await send('post', '/fields/notes', { field: 'color', type: 'string', schema: { default_value: 'red' } })).status).toBe(200);
    try {
      const r = JSON.parse(await readItemsText(deps(staleSource(before)), admin, 'notes', { fields: 'id,color', sort: 'id', limit: '1' }));
      expect(r.data).toEqual([{ id: 1, color: 'red' }]);
    } finally {
      await send('delete', '/fields/notes/color');
    }
  });

  it('a field dropped since: the read answers without it instead of failing', async () => {
    expect((await send('post', '/fields/notes', { field: 'gone', type: 'string' })).status).toBe(200);
    const before = (await loadCollection(h.pool, 'notes'))!;
    expect((await send('delete', '/fields/notes/gone')).status).toBe(204);
    const r = JSON.parse(await readItemsText(deps(staleSource(before)), admin, 'notes', { sort: 'id', limit: '1' }));
    expect(r.data).toEqual([{ id: 1, title: 'a' }]);
  });
});

describe('writes take the kept definition too', () => {
  /** The statements the app's connections sent while `fn` ran (pg's Client#query observed, not replaced). */
  async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
    const proto = Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    const seen: string[] = [];
    proto.query = function (this: unknown, ...args: unknown[]) {
      const c = args[0] as string | { text?: string };
      seen.push(typeof c === 'string' ? c : (c?.text ?? ''));
      return original.apply(this, args);
    };
    try {
      await fn();
    } finally {
      proto.query = original;
    }
    return seen;
  }

  it('a PATCH sends no catalogue statement (its own UPDATE locks the table a schema change waits for)', async () => {
    await send('patch', '/items/notes/1', { title: 'warm' }); // the definition is kept
    const sent = await statementsOf(async () => expect((await send('patch', '/items/notes/1', { title: 'a' })).status).toBe(200));
    expect(sent.some((t) => /UPDATE/i.test(t))).toBe(true);
    expect(sent.filter((t) => t.includes('"collections"'))).toEqual([]);
  });

  it('a write over the kept definition of a collection deleted since runs again on a fresh one: 403, not a database error', async () => {
    expect((await send('post', '/collections', { collection: 'brief', fields: [{ field: 'title', type: 'string' }] })).status).toBe(200);
    const before = (await loadCollection(h.pool, 'brief'))!;
    expect((await send('delete', '/collections/brief')).status).toBe(204);
    const stale: CatalogueSource = { get: async () => before, getMany: async () => [before] };
    const ctx = { accountability: admin, now: new Date(), requestId: 'stale-write' };
    const d: ItemsDeps = { pool: h.pool, rules: h.rules, now: () => new Date(), limits: { limitDefault: 100 }, catalogue: stale };
    await expect(createItems(d, ctx, 'brief', { title: 'lost' })).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await expect(updateItems(d, ctx, 'brief', [{ key: '1', data: { title: 'lost' } }])).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });
});
