// A login updates its user's row; the users table keeps room on its pages (fillfactor 90) so that this update is
// HOT (no entry in any of the table's nine indexes) also for users inserted in bulk, whose pages are otherwise full.
import request from 'supertest';
import { ADMIN, harness, type Harness } from './helpers';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

it('users is filled to 90%, and a login of a user on a page of bulk-inserted users is a HOT update', async () => {
  expect((await h.sql<{ reloptions: string[] | null }>(`SELECT reloptions FROM pg_class WHERE relname = 'users'`))[0]!.reloptions).toContain('fillfactor=90');
  await h.sql(
    `INSERT INTO users (id, first_name, last_name, email, password, title, description)
     SELECT gen_random_uuid(), 'First' || i, 'Last' || i, 'bulk' || i || '@example.com', (SELECT password FROM users WHERE email = $1),
            'Title of user ' || i, 'A description of user number ' || i
       FROM generate_series(1, 300) i`,
    [ADMIN.email],
  );
  // a user on the first page the bulk insert filled (not the last, partly filled one)
  const [bulk] = await h.sql<{ email: string }>(`SELECT email FROM users WHERE email LIKE 'bulk%' ORDER BY ctid LIMIT 1`);
  // A HOT update keeps the new row version on its page (no index changes); a full page sends it to another one,
  // with an entry in every index. (The statistics' HOT counter is flushed by the login's backend only when idle.)
  const page = async () => (await h.sql<{ page: number }>(`SELECT (ctid::text::point)[0] AS page FROM users WHERE email = $1`, [bulk!.email]))[0]!.page;
  const before = await page();
  expect((await request(h.app).post('/auth/login').send({ email: bulk!.email, password: ADMIN.password })).status).toBe(200);
  expect(await page()).toBe(before);
});
