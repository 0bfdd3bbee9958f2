import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// API JSON compressed when the client accepts it (br, else gzip), from 1 KiB on, through the gateway of the embedded
// platform: the REST lists of every service and GraphQL (the front door's POST and express's GET), the same JSON
// once decoded; small answers and clients that accept nothing go as they are.
interface Call {
  method: string;
  path: string;
  body?: object;
}
interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('API answers compressed for clients that accept it', () => {
  let p: TestPlatform;
  let auth: { Authorization: string };
  beforeAll(async () => {
    p = await startTestPlatform();
    auth = { Authorization: `Bearer ${(await p.login()).access_token}` };
    const api = request(p.url);
    await api
      .post('/collections')
      .set(auth)
      .send(collectionWithId('notes', [{ field: 'body', type: 'text' }]))
      .expect(200);
    await api
      .post('/items/notes')
      .set(auth)
      .send(Array.from({ length: 30 }, (_, i) => ({ body: `note ${i} `.repeat(8) })))
      .expect(200);
    const readers: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await api
        .post('/users')
        .set(auth)
        .send({ email: `reader-${i}@example.com`, first_name: 'Reader', last_name: `Number ${i}`, status: 'active' })
        .expect(200);
      readers.push(r.body.data.id);
    }
    // The history arrives asynchronously: every call below compares two reads, so all of it must be in first.
    const recorded = async (filter: object) => {
      const r = await api
        .get('/revisions')
        .query({ filter: JSON.stringify(filter), meta: 'filter_count' })
        .set(auth);
      return r.body.meta?.filter_count;
    };
    await eventually(
      async () =>
        (await recorded({ collection: { _eq: 'notes' } })) === 30 && (await recorded({ collection: { _eq: 'vellum_users' }, item: { _in: readers } })) === 8,
    );
  }, 60_000);
  afterAll(() => p?.close());

  /** The status, headers and raw bytes of a request with this Accept-Encoding (node:http: nothing decoded). */
  const raw = (c: Call, accept = 'identity') =>
    new Promise<Raw>((resolve, reject) => {
      const body = c.body === undefined ? undefined : JSON.stringify(c.body);
      const headers: Record<string, string> = { ...auth, 'Accept-Encoding': accept };
      if (body) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
      const req = httpRequest(`${p.url}${c.path}`, { method: c.method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (b: Buffer) => chunks.push(b));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const decoded = (res: Raw) => {
    const bytes = res.body;
    const enc = res.headers['content-encoding'];
    return JSON.parse((enc === 'br' ? brotliDecompressSync(bytes) : enc === 'gzip' ? gunzipSync(bytes) : bytes).toString());
  };
  const gql = { query: '{ revisions(limit: 25, sort: ["-id"]) { id collection item data } }' };
  const q = (o: object) => new URLSearchParams(Object.entries(o)).toString();
  const calls: [string, Call][] = [
    ['GET /revisions', { method: 'GET', path: '/revisions?limit=25&sort=-id' }],
    ['GET /items/notes', { method: 'GET', path: '/items/notes?limit=30' }],
    ['GET /users', { method: 'GET', path: '/users?fields=*' }],
    ['POST /graphql/system', { method: 'POST', path: '/graphql/system', body: gql }],
    ['GET /graphql/system', { method: 'GET', path: `/graphql/system?${q(gql)}` }],
  ];

  it.each(calls)('%s: brotli or gzip as accepted, the same JSON as uncompressed, Vary: Accept-Encoding', async (_name, call) => {
    const plain = await raw(call);
    expect([plain.status, plain.headers['content-encoding']]).toEqual([200, undefined]);
    expect(plain.body.length).toBeGreaterThan(1024);
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const r = await raw(call, accept);
      expect([r.status, r.headers['content-encoding']]).toEqual([200, encoding]);
      expect(r.headers.vary).toMatch(/accept-encoding/i);
      if (encoding) expect(r.body.length).toBeLessThan(plain.body.length / 2);
      expect(decoded(r)).toEqual(decoded(plain));
    }
  });

  it('a small answer goes as it is', async () => {
    const r = await raw({ method: 'GET', path: '/users/me?fields=id' }, 'br');
    expect([r.status, r.headers['content-encoding']]).toEqual([200, undefined]);
  });
});
