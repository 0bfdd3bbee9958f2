import { createStreamHarness, access, apiTokenEntry, idsOf, type StreamHarness } from './stream-support';
import { itemEvent, signToken } from './helpers';

const change = (item: string, timestamp = new Date().toISOString()) =>
  itemEvent({ collection: 'articles', item, action: 'create', data: { id: item }, at: timestamp });
const now = () => Math.floor(Date.now() / 1000);

describe('GET /revisions/stream: who may listen, and for how long', () => {
  let h: StreamHarness;
  beforeAll(async () => {
    h = await createStreamHarness({ STREAM_HEARTBEAT: 200 });
    await h.setRules('r-reader', access('r-reader', { articles: { read: ['*'] } }));
  });
  afterAll(() => h.close());

  it('reads the session cookie (EventSource sends cookies, not headers)', async () => {
    const token = signToken({ id: 'u1', role: 'r-reader' });
    const s = await h.stream('/revisions/stream', { cookie: `vellum_session_token=${token}` });
    await h.writer.write([change('c1')]);
    await s.until((e) => idsOf(e).length === 1);
    s.close();
    // anonymous: the public role, which may read nothing here
    const anon = await h.stream('/revisions/stream');
    await h.writer.write([change('c2')]);
    await new Promise((r) => setTimeout(r, 300));
    anon.close();
    expect(idsOf(anon.events)).toEqual([]);
  });

  it('ends with auth_expired when the token expires', async () => {
    const token = signToken({ id: 'u1', role: 'r-reader', exp: now() + 2 });
    const s = await h.stream('/revisions/stream', { authorization: `Bearer ${token}` });
    const t0 = Date.now();
    await s.until((e) => e.some((x) => x.event === 'auth_expired'), 5000);
    await s.closed();
    expect(Date.now() - t0).toBeLessThan(3500);
  });

  it('ends with auth_expired within 5 s of its session ending', async () => {
    const token = signToken({ id: 'u1', role: 'r-reader', session: 'sess-1', sid: 'fam-1' } as never);
    const s = await h.stream('/revisions/stream', { authorization: `Bearer ${token}` });
    await new Promise((r) => setTimeout(r, 300));
    expect(s.ended).toBe(false);
    const t0 = Date.now();
    h.revoked.add('fam-1');
    await s.until((e) => e.some((x) => x.event === 'auth_expired'), 5000);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('ends with auth_expired within 5 s of its API token being revoked', async () => {
    const [hash, entry] = apiTokenEntry('vlm_stream_test_token_123456', { user: 'u2', role: 'r-reader' });
    h.apiTokens.set(hash, entry);
    const s = await h.stream('/revisions/stream', { authorization: 'Bearer vlm_stream_test_token_123456' });
    expect(s.status).toBe(200);
    await h.writer.write([change('t1')]);
    await s.until((e) => idsOf(e).length === 1);
    const t0 = Date.now();
    h.apiTokens.delete(hash);
    await s.until((e) => e.some((x) => x.event === 'auth_expired'), 5000);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const s = await h.stream('/revisions/stream', { authorization: `Bearer ${signToken({ id: 'u1', role: 'r-reader' })}` });
    await new Promise((r) => setTimeout(r, 1100));
    s.close();
    expect(s.comments).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /revisions/stream: a since older than retention', () => {
  let h: StreamHarness;
  beforeAll(async () => {
    h = await createStreamHarness({ REVISIONS_RETENTION: 24 * 3600_000 });
  });
  afterAll(() => h.close());

  it('sends one reset event with the earliest id, then every revision from there', async () => {
    const old = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    await h.writer.write([change('o1', old), change('o2', old)]);
    await h.writer.write([change('n1'), change('n2')]);
    const ids = (await h.get('/revisions?fields=id&sort=id', `Bearer ${signToken({ id: 'a', role: null, admin_access: true })}`)).body.data!.map(
      (r) => r.id as number,
    );
    const admin = { authorization: `Bearer ${signToken({ id: 'a', role: null, admin_access: true })}` };
    const s = await h.stream('/revisions/stream?since=0', admin);
    await s.until((e) => idsOf(e).length === 2);
    expect(s.events[0]).toEqual({ id: String(ids[2]! - 1), event: 'reset', data: JSON.stringify({ earliest: ids[2] }) });
    expect(idsOf(s.events)).toEqual([ids[2], ids[3]]);
    s.close();
    // within retention: no reset
    const fresh = await h.stream(`/revisions/stream?since=${ids[2]}`, admin);
    await fresh.until((e) => idsOf(e).length === 1);
    fresh.close();
    expect(fresh.events.map((e) => e.event)).toEqual(['message']);
  });
});
