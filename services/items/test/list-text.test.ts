import request from 'supertest';
import { harness, type Harness } from './helpers';
import { createSchema } from './schema-fixtures';

// A list answered as text written from its rows (list-text.ts; children as the JSON text PostgreSQL wrote) must
// be byte for byte what the shaped objects gave: each list row's text is checked against its one-item read's
// (objects, children read apart, stringified), for every field type, permissions and deep.
let h: Harness;
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (url: string, query: object = {}, token = h.admin) => request(h.app).get(url).query(query).set(bearer(token));
const post = (url: string, body: object) => request(h.app).post(url).set(bearer(h.admin)).send(body).expect(200);
let sent: { text: string; rowMode?: string }[] = [];

/** Text no JSON writer escapes alike by accident: quotes, backslashes, control characters, non-ASCII, U+2028. */
const odd = (i: number) => `c${i} "q" \\ \n\t\u0001\u001f\u007f é 😀 \u2028 </script>`;

beforeAll(async () => {
  h = await harness();
  const query = h.pool.query.bind(h.pool);
  h.pool.query = ((...args: Parameters<typeof query>) => {
    const c = args[0] as unknown as { text?: string; rowMode?: string };
    if (typeof c === 'object' && c.text) sent.push({ text: c.text, rowMode: c.rowMode });
    return query(...args);
  }) as typeof h.pool.query;
  await createSchema(
    h,
    {
      authors: 'name:string,bio:text',
      articles: 'title:string,flag:boolean,big:bigInteger,price:decimal,rating:float,day:date,at:timestamp,meta:json,ref:uuid,author:integer',
      comments: 'body:text,article:integer,votes:integer,ok:boolean,ref:uuid',
      notes: 'article:integer,data:json',
    },
    [
      { collection: 'articles', field: 'author', related_collection: 'authors' },
      { collection: 'comments', field: 'article', related_collection: 'articles', meta: { one_field: 'comments' } },
      { collection: 'notes', field: 'article', related_collection: 'articles', meta: { one_field: 'notes' } },
    ],
  );
  for (let i = 0; i < 6; i++) {
    const comments = Array.from({ length: i % 4 }, (_, j) => ({
      body: j === 1 ? null : odd(j),
      votes: (j * 7 + i) % 5,
      ok: j % 2 === 0,
      ref: j ? `0000000${j}-0000-4000-8000-00000000000${i}` : null,
    }));
    await post('/items/articles', {
      title: odd(i),
      flag: i % 2 === 0,
      big: i === 3 ? '9007199254740993' : i,
      price: '1.10',
      rating: i / 3,
      day: '2026-02-03',
      at: '2026-01-02T03:04:05.678',
      meta: i % 2 ? { a: [1, 2.5, 'x'], b: { c: null } } : null,
      ref: `1000000${i}-0000-4000-8000-000000000000`,
      author: i === 4 ? null : { name: odd(i), bio: 'b' },
      comments,
      notes: i === 1 ? [{ data: { n: 1, s: ' spaced ' } }] : [],
    });
  }
  await get('/items/articles', { fields: 'comments.*,notes.*' }).expect(200);
});
afterAll(() => h.close());

/**
 * The list's text equals the one-item reads' texts joined (`{"data":[…]}`, plus `meta`), and whether the list was
 * read as arrays (the text path) or as objects.
 */
async function sameBytes(q: Record<string, unknown>, token = h.admin, meta?: string): Promise<{ text: string; arrays: boolean }> {
  sent = [];
  const list = await get('/items/articles', { ...q, sort: 'id', ...(meta ? { meta } : {}) }, token).expect(200);
  const arrays = sent.some((s) => s.rowMode === 'array');
  const { fields, ...rest } = q;
  const ids = (await get('/items/articles', { fields: 'id', sort: 'id', ...(rest.filter ? { filter: rest.filter } : {}) }, token)).body.data;
  const rows: string[] = [];
  for (const { id } of ids) {
    const one = await get(`/items/articles/${id}`, { fields, ...(rest['deep'] ? { deep: rest['deep'] } : {}) }, token).expect(200);
    expect(one.text.startsWith('{"data":')).toBe(true);
    rows.push(one.text.slice('{"data":'.length, -1));
  }
  const metaText = meta ? `,"meta":${JSON.stringify(list.body.meta)}` : '';
  expect(list.text).toBe(`{"data":[${rows.join(',')}]${metaText}}`);
  return { text: list.text, arrays };
}

describe('a list written as text from its rows', () => {
  it('gives the bytes of the shaped answer for every field type, m2o null or joined, children with their keys and deep', async () => {
    for (const q of [
      { fields: '*' },
      { fields: '*,author.*' },
      { fields: '*,author.*,comments.*' },
      { fields: 'id,title,comments' },
      { fields: 'id,comments.body,comments.ref' },
      { fields: 'id,comments.article,comments.votes' },
      { fields: 'id,comments.votes,comments.id', deep: JSON.stringify({ comments: { _sort: '-votes', _limit: 2, _offset: 1 } }) },
      { fields: 'id,comments', deep: JSON.stringify({ comments: { _limit: 1 } }) },
      { fields: '*,comments.*', deep: JSON.stringify({ comments: { _filter: { votes: { _gt: 1 } } } }), filter: JSON.stringify({ flag: { _eq: true } }) },
    ]) {
      const r = await sameBytes(q);
      expect([q, r.arrays]).toEqual([q, true]);
    }
    const r = await sameBytes({ fields: 'id,author,comments.body' });
    expect(JSON.parse(r.text).data.slice(3, 5)).toEqual([
      { id: 4, author: 4, comments: [{ body: odd(0) }, { body: null }, { body: odd(2) }] },
      { id: 5, author: null, comments: [] },
    ]);
    const joined = await sameBytes({ fields: 'id,author.name' });
    expect(JSON.parse(joined.text).data[4]).toEqual({ id: 5, author: null });
    // with meta, and an empty page
    expect((await sameBytes({ fields: '*,comments.*' }, h.admin, 'total_count,filter_count')).arrays).toBe(true);
    expect((await sameBytes({ fields: '*,comments.*', filter: JSON.stringify({ title: { _eq: 'none' } }) })).text).toBe('{"data":[]}');
  });

  it('leaves to shaped objects what it cannot write as it is: JSON children, the key dropped after, with the same bytes', async () => {
    expect((await sameBytes({ fields: 'id,notes.*' })).arrays).toBe(false);
    expect((await sameBytes({ fields: 'comments.body' })).arrays).toBe(false);
    expect((await sameBytes({ fields: 'title,comments' })).arrays).toBe(false);
    expect((await sameBytes({ fields: 'title,comments.*,notes.data' })).arrays).toBe(false);
  });

  it('applies the caller permissions at every level', async () => {
    await h.grant('text-readers', {
      articles: { read: ['id', 'title', 'author'] },
      authors: { read: ['name'] },
      comments: { read: ['id', 'votes', 'article'] },
    });
    const reader = h.tokenFor('text-readers');
    const r = await sameBytes({ fields: '*,author.*,comments.*' }, reader);
    expect(r.arrays).toBe(true);
    expect(JSON.parse(r.text).data[1]).toEqual({ id: 2, title: odd(1), author: { id: 2, name: odd(1) }, comments: [{ id: 1, votes: 1, article: 2 }] });
    const cut = await sameBytes({ fields: 'id,comments.votes' }, reader);
    expect([cut.arrays, JSON.parse(cut.text).data[2]]).toEqual([true, { id: 3, comments: [{ votes: 2 }, { votes: 4 }] }]);
    expect((await get('/items/articles', { fields: 'comments.body' }, reader)).status).toBe(403);
    // authors not readable: the many-to-one field is its key
    await h.grant('no-authors', { articles: { read: ['*'] }, comments: { read: ['*'] } });
    const r2 = await sameBytes({ fields: 'id,author,comments.id' }, h.tokenFor('no-authors'));
    expect(JSON.parse(r2.text).data.map((a: { author: unknown }) => a.author)).toEqual([1, 2, 3, 4, null, 5]);
  });
});
