import request from 'supertest';
import { access, createHarness, itemEvent, signToken, type Harness } from './helpers';

// `data`/`delta` go from PostgreSQL's JSON text to the response unparsed: numbers keep the digits the database
// holds (a parse + stringify would print 12345678901234567890 as 12345678901234567000 and 1.50 as 1.5).
let h: Harness;
const admin = `Bearer ${signToken({ id: 'admin-user', role: 'r-admin', admin_access: true })}`;
const editor = `Bearer ${signToken({ id: 'u-1', role: 'r-editor' })}`;
const stored = '{"n": 1.50, "big": 12345678901234567890, "title": "T \\u00e9 \\"q\\"", "secret": "s"}';

beforeAll(async () => {
  h = await createHarness();
  await h.writer.write([
    itemEvent({ collection: 'notes', item: '1', action: 'create', data: { title: 'a' }, actor: { user: null }, at: '2026-01-01T00:00:00.000Z' }),
    itemEvent({ collection: 'articles', item: '1', action: 'create', data: { title: 'b' }, actor: { user: null }, at: '2026-01-02T00:00:00.000Z' }),
  ]);
  await h.pool.query('UPDATE revisions SET data = $1::jsonb, delta = $1::jsonb', [stored]);
  await h.setRules('r-editor', access('r-editor', { articles: { read: ['id', 'title'] }, notes: { read: ['*'] } }));
});
afterAll(() => h.close());

const get = (path: string, auth = admin) => request(h.app.listener).get(path).set('Authorization', auth);
const exact = '"n": 1.50, "big": 12345678901234567890'; // jsonb's text: shorter keys first

describe('JSON text pass-through', () => {
  it('lists, SEARCH and one record carry data/delta as the database wrote them', async () => {
    const list = await get('/revisions?sort=id&fields=id,data,delta');
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(list.text.split(exact).length - 1).toBe(4);
    expect(list.body.data[0].data).toEqual(JSON.parse(stored));
    const search = await request(h.app.listener)
      .search('/revisions')
      .set('Authorization', admin)
      .send({ query: { fields: ['data'], limit: 1 } });
    expect(search.text).toContain(exact);
    const one = await get('/revisions/1?fields=id,delta');
    expect(one.text).toContain(exact);
    expect(one.body).toEqual({ data: { id: 1, delta: JSON.parse(stored) } });
  });

  it('a restricted role gets whole values as text and reduced values parsed, same JSON', async () => {
    const r = await get('/revisions?sort=id&fields=id,collection,data', editor);
    expect(r.body.data).toEqual([
      { id: 1, collection: 'notes', data: JSON.parse(stored) },
      { id: 2, collection: 'articles', data: { title: 'T é "q"' } },
    ]);
    expect(r.text).toContain(exact); // the notes revision passes whole
  });
});

describe('the list page from array rows', () => {
  it('reads the page with rowMode array and writes what the object path writes; GET and HEAD carry the same length', async () => {
    const path = '/revisions?sort=-id&fields=id,collection,data,activity.action,parent.id&meta=total_count';
    const spy = jest.spyOn(h.pool, 'query');
    let r: request.Response;
    let sent: { text?: string; rowMode?: string }[];
    try {
      r = await get(path);
      sent = spy.mock.calls.map(([c]) => c as unknown as { text?: string; rowMode?: string });
    } finally {
      spy.mockRestore(); // (clears the calls)
    }
    expect(r.status).toBe(200);
    expect(sent.filter((c) => c.text?.includes('SELECT r."id"')).map((c) => c.rowMode)).toEqual(['array']);
    const row = (id: number, collection: string) => ({ id, collection, data: JSON.parse(stored), activity: { action: 'create' }, parent: null });
    expect(r.body).toEqual({ data: [row(2, 'articles'), row(1, 'notes')], meta: { total_count: 2 } });
    expect(r.text).toContain(exact);
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.text)));
    const head = await request(h.app.listener).head(path).set('Authorization', admin);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(r.headers['content-length']);
  });
});

describe('JSON text pass-through in GraphQL', () => {
  const gql = (query: string, auth = admin) => request(h.app.listener).post('/graphql').set('Authorization', auth).send({ query });

  it('revisions and revisions_by_id carry data/delta as the database wrote them; a restricted role gets its reduced values', async () => {
    const list = await gql('{ revisions(sort: ["id"]) { id data delta } }');
    expect(list.status).toBe(200);
    expect(list.text.split(exact).length - 1).toBe(4);
    expect(list.body.data.revisions[0]).toEqual({ id: '1', data: JSON.parse(stored), delta: JSON.parse(stored) });
    const one = await gql('{ revisions_by_id(id: 2) { data } }');
    expect(one.text).toContain(exact);
    const restricted = await gql('{ revisions(sort: ["id"]) { collection data } }', editor);
    expect(restricted.body.data.revisions).toEqual([
      { collection: 'notes', data: JSON.parse(stored) },
      { collection: 'articles', data: { title: 'T é "q"' } },
    ]);
  });

  it('the same operation twice: the second is planned from the cache, and answers the same', async () => {
    const q = '{ revisions(sort: ["-id"], limit: 1, filter: { collection: { _eq: "notes" } }) { id collection } }';
    const before = h.app.reader.cachedPlans();
    const first = await gql(q);
    const second = await gql(q);
    expect(second.body).toEqual(first.body);
    expect(first.body.data.revisions).toEqual([{ id: '1', collection: 'notes' }]);
    expect(h.app.reader.cachedPlans()).toBe(before + 1);
  });
});
