import { aggregate, createDirectus, readPermissions, readRoles, readUsers, rest, staticToken, withSearch } from '@directus/sdk';
import { listenOn, type Listening } from '@vellum/http';
import { harness, loginAs, type Harness } from './helpers';

// Issue 23 point 1 with the official @directus/sdk: readUsers / readRoles / readPermissions with filter, fields,
// sort, search and meta give exactly what the same query computes on the client over the full list.
type Row = Record<string, unknown>;

let h: Harness;
let server: Listening;
/** The JSON body of the last response (the SDK hands back only `data`; `meta` is read here). */
let lastBody: { data?: unknown; meta?: Record<string, number> } = {};
let client: ReturnType<typeof connect>;

function connect(url: string, token: string) {
  const recording = async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const res = await fetch(input, init);
    lastBody = (await res
      .clone()
      .json()
      .catch(() => ({}))) as typeof lastBody;
    return res;
  };
  return createDirectus(url, { globals: { fetch: recording as typeof fetch } })
    .with(staticToken(token))
    .with(rest());
}
const req = async (cmd: Parameters<typeof client.request>[0]) => (await client.request(cmd)) as unknown as Row[];

const FIRST = ['Ann', 'Anna', 'Bob', 'Cyd', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal', 'Ida'];
const LAST = ['Smith', 'Smithers', 'Jones', 'Brown', 'Black', 'Mitchell', null];
const STATUS = ['active', 'active', 'invited', 'suspended', 'archived'];
const ROLES = ['Reader', 'Editor', 'Writer', 'Guest'];

beforeAll(async () => {
  h = await harness();
  const roleIds: string[] = [];
  for (const [i, name] of ROLES.entries()) {
    const [r] = await h.sql<{ id: string }>(
      `INSERT INTO roles (id, name, description, admin_access, app_access) VALUES (gen_random_uuid(), $1, $2, false, $3) RETURNING id`,
      [name, i % 2 ? `${name}s write and smith words` : null, i % 2 === 0],
    );
    roleIds.push(r!.id);
  }
  // 60 users: varied names (some null), statuses, roles (some none), titles; one has a password and a TFA secret
  for (let i = 0; i < 60; i++) {
    const first = FIRST[(i * 7) % FIRST.length]!;
    await h.sql(
      `INSERT INTO users (id, first_name, last_name, email, status, role_id, title, description, password, tfa_secret)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        i % 13 === 5 ? null : first,
        LAST[(i * 3) % LAST.length],
        `${first.toLowerCase()}${String(i).padStart(2, '0')}@${i % 3 ? 'site' : 'other'}.io`,
        STATUS[i % STATUS.length],
        i % 6 === 0 ? null : roleIds[i % roleIds.length],
        i % 4 ? `Title ${i % 5}` : null,
        i % 9 === 0 ? 'Mentions a blacksmith' : null,
        i === 7 ? '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' : null,
        i === 7 ? 'sealed' : null,
      ],
    );
  }
  for (let i = 0; i < 20; i++)
    await h.sql(`INSERT INTO permissions (role_id, collection, action, fields) VALUES ($1, $2, $3, $4)`, [
      i % 5 === 0 ? null : roleIds[i % roleIds.length],
      `col_${'abcdefg'[i % 7]}`,
      ['create', 'read', 'update', 'delete'][i % 4],
      i % 2 ? ['*'] : ['id', 'title'],
    ]);
  server = await listenOn(h.app, 0, '127.0.0.1');
  client = connect(server.url, (await loginAs(h.app)).body.data.access_token);
});
afterAll(async () => {
  await server?.close(100);
  await h?.close();
});

// ---- the same query language, on the client
/** PostgreSQL's order: ASC puts nulls last, DESC first; the primary key breaks ties. */
function order(keys: string[], pk = 'id') {
  return (a: Row, b: Row) => {
    for (const k of [...keys, pk]) {
      const desc = k.startsWith('-');
      const f = desc ? k.slice(1) : k;
      const x = pick(a, f) as string | number | null;
      const y = pick(b, f) as string | number | null;
      if (x === y) continue;
      const c = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc ? -c : c;
    }
    return 0;
  };
}
const pick = (row: Row, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v === null || v === undefined ? null : (v as Row)[k]), row);
const project = (rows: Row[], fields: string[]) =>
  rows.map((r) => {
    const out: Row = {};
    for (const f of fields) {
      const [head, sub] = f.split('.');
      if (sub) out[head!] = r[head!] === null ? null : { ...((out[head!] as Row) ?? {}), [sub]: pick(r, f) };
      else out[f] = r[f];
    }
    return out;
  });
const ilike = (v: unknown, term: string) => typeof v === 'string' && v.toLowerCase().includes(term.toLowerCase());

describe('the official @directus/sdk against /users, /roles, /permissions', () => {
  let users: Row[];
  let roles: Row[];
  let perms: Row[];
  const roleName = (id: unknown) => (roles.find((r) => r.id === id)?.name as string | undefined) ?? null;
  beforeAll(async () => {
    users = await req(readUsers({ limit: -1 }));
    roles = await req(readRoles({ limit: -1 }));
    perms = await req(readPermissions({ limit: -1 }));
  });

  it('reads the full lists in the default shape', () => {
    expect(users).toHaveLength(61); // + the bootstrap admin
    expect(roles).toHaveLength(5);
    expect(perms).toHaveLength(20);
    expect(users.filter((u) => u.password === '**********').map((u) => u.tfa_secret)).toEqual(expect.arrayContaining(['**********']));
    expect(users.every((u) => u.password === null || u.password === '**********')).toBe(true);
  });

  it('readRoles with a filter: the reader role, not the Administrator (the issue)', async () => {
    const got = await req(readRoles({ filter: { name: { _eq: 'Reader' } } }));
    expect(got).toEqual(roles.filter((r) => r.name === 'Reader'));
    expect(got).toHaveLength(1);
    expect(await req(readUsers({ filter: { email: { _eq: 'nobody@example.com' } } }))).toEqual([]);
  });

  it('readUsers: _and/_or, relational role.name, fields, sort and paging', async () => {
    const filter = {
      _and: [
        { status: { _in: ['active', 'invited'] } },
        { _or: [{ last_name: { _istarts_with: 'SMITH' } }, { role: { name: { _eq: 'Editor' } } }, { first_name: { _null: true } }] },
      ],
    };
    const fields = ['id', 'email', 'last_name', 'role.name'];
    const sort = ['last_name', '-email'];
    const expected = users
      .filter((u) => ['active', 'invited'].includes(u.status as string))
      .filter(
        (u) =>
          String(u.last_name ?? '')
            .toLowerCase()
            .startsWith('smith') ||
          roleName(u.role) === 'Editor' ||
          u.first_name === null,
      )
      .map((u) => ({ ...u, role: u.role === null ? null : { name: roleName(u.role) } }))
      .sort(order(sort));
    expect(expected.length).toBeGreaterThan(6);
    const all = await req(readUsers({ filter, fields, sort, limit: -1 }));
    expect(all).toEqual(project(expected, fields));
    const page2 = await req(readUsers({ filter, fields, sort, limit: 3, page: 2 }));
    expect(page2).toEqual(project(expected, fields).slice(3, 6));
    const offset = await req(readUsers({ filter, fields, sort, limit: 4, offset: 5 }));
    expect(offset).toEqual(project(expected, fields).slice(5, 9));
  });

  it('readUsers with search and meta (filter_count, total_count)', async () => {
    for (const term of ['smith', 'SITE.IO', 'title 3', 'ann']) {
      const expected = users
        .filter((u) => ['first_name', 'last_name', 'email', 'title', 'description'].some((f) => ilike(u[f], term)))
        .sort(order(['-first_name']));
      const got = await req(readUsers({ search: term, fields: ['id', 'first_name', 'email'], sort: ['-first_name'], limit: 5, meta: '*' } as never));
      expect([term, got]).toEqual([term, project(expected, ['id', 'first_name', 'email']).slice(0, 5)]);
      expect([term, lastBody.meta]).toEqual([term, { total_count: users.length, filter_count: expected.length }]);
    }
    // a secret is never searched: the hash and the sealed TFA secret match nothing
    expect(await req(readUsers({ search: 'argon2id' }))).toEqual([]);
    expect(await req(readUsers({ search: 'sealed' }))).toEqual([]);
  });

  it('SEARCH (withSearch) gives what GET gives', async () => {
    const query = { filter: { role: { admin_access: { _eq: false } } }, fields: ['email', 'role.name'], sort: ['email'], limit: 7 };
    const viaGet = await req(readUsers(query));
    expect(await req(withSearch(readUsers(query)))).toEqual(viaGet);
    expect(viaGet).toEqual(
      project(
        users
          .filter((u) => u.role !== null && roles.find((r) => r.id === u.role)?.admin_access === false)
          .map((u) => ({ ...u, role: { name: roleName(u.role) } }))
          .sort(order(['email'])),
        ['email', 'role.name'],
      ).slice(0, 7),
    );
  });

  it('readRoles and readPermissions with filter, fields, sort, search and meta', async () => {
    const r = await req(readRoles({ search: 'smith', fields: ['name', 'app_access'], sort: ['-name'], meta: 'filter_count' } as never));
    expect(r).toEqual(project(roles.filter((x) => ilike(x.name, 'smith') || ilike(x.description, 'smith')).sort(order(['-name'])), ['name', 'app_access']));
    expect(lastBody.meta).toEqual({ filter_count: r.length });
    const filter = { _or: [{ role: { _null: true } }, { _and: [{ action: { _in: ['read', 'update'] } }, { role: { name: { _neq: 'Guest' } } }] }] };
    const fields = ['id', 'collection', 'action', 'fields', 'role.name'];
    const p = await req(readPermissions({ filter, fields, sort: ['-collection', 'action'], meta: 'total_count' } as never));
    const expected = perms
      .filter((x) => x.role === null || (['read', 'update'].includes(x.action as string) && roleName(x.role) !== 'Guest'))
      .map((x) => ({ ...x, role: x.role === null ? null : { name: roleName(x.role) } }))
      .sort(order(['-collection', 'action']));
    expect(p).toEqual(project(expected, fields));
    expect(lastBody.meta).toEqual({ total_count: perms.length });
    const searched = await req(readPermissions({ search: 'col_c', fields: ['id'], sort: ['id'] }));
    expect(searched).toEqual(perms.filter((x) => x.collection === 'col_c').map((x) => ({ id: x.id })));
  });

  it('aggregate over users (count grouped by status)', async () => {
    const got = (await client.request(aggregate('directus_users' as never, { aggregate: { count: '*' }, groupBy: ['status'] } as never))) as unknown as Row[];
    const counts = new Map<string, number>();
    for (const u of users) counts.set(u.status as string, (counts.get(u.status as string) ?? 0) + 1);
    expect(got).toEqual([...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([status, count]) => ({ status, count })));
  });

  it('surfaces 403 for a secret and 400 for an unknown operator to the SDK', async () => {
    await expect(client.request(readUsers({ filter: { password: { _nnull: true } } as never }))).rejects.toMatchObject({
      errors: [{ extensions: { code: 'FORBIDDEN' } }],
    });
    await expect(client.request(readUsers({ fields: ['tfa_secret'] as never }))).rejects.toMatchObject({ errors: [{ extensions: { code: 'FORBIDDEN' } }] });
    await expect(client.request(readUsers({ filter: { email: { _regex: 'x' } } as never }))).rejects.toMatchObject({
      errors: [{ extensions: { code: 'INVALID_QUERY' } }],
    });
  });
});
