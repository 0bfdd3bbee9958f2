import request from 'supertest';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// Issue 36: a scheduled promote that fails (the live item changed since, no force) is visible in activity, not only
// in the log: through the gateway of the embedded platform, `GET /activity?filter[action][_eq]=promote_failed`
// lists it on the item, by the scheduling user, with the version and the reason in `comment`.
describe('a failed scheduled promote in activity (one process)', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform();
  });
  afterAll(() => p?.close());

  it('promote_failed activity with the reason; no revision for it', async () => {
    const token = (await p.login()).access_token;
    const api = () => request(p.url);
    const as = { Authorization: `Bearer ${token}` };
    const me = (await api().get('/users/me').set(as).expect(200)).body.data.id as string;
    await api()
      .post('/collections')
      .set(as)
      .send({ ...collectionWithId('articles', [{ field: 'title', type: 'string' }]), meta: { versioning: true } })
      .expect(200);
    const id = (await api().post('/items/articles').set(as).send({ title: 'live' }).expect(200)).body.data.id as number;
    const v = (await api().post('/versions').set(as).send({ key: 'draft', collection: 'articles', item: id }).expect(200)).body.data;
    await api().post(`/versions/${v.id}/save`).set(as).send({ title: 'draft' }).expect(200);
    await api()
      .patch(`/versions/${v.id}`)
      .set(as)
      .send({ publish_at: new Date(Date.now() + 1000).toISOString() })
      .expect(200);
    await api().patch(`/items/articles/${id}`).set(as).send({ title: 'changed' }).expect(200);

    const failed = await eventually(async () => {
      const r = (await api().get(`/versions/${v.id}`).set(as).expect(200)).body.data;
      return r.publish_status === 'failed' ? r : undefined;
    });
    expect(failed.publish_error).toMatch(/^VERSION_HASH_MISMATCH: /);
    const rows = await eventually(async () => {
      const r = await api()
        .get('/activity')
        .query({ 'filter[action][_eq]': 'promote_failed', fields: 'id,action,user,collection,item,comment' })
        .set(as)
        .expect(200);
      return r.body.data.length ? (r.body.data as Record<string, unknown>[]) : undefined;
    });
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        action: 'promote_failed',
        user: me,
        collection: 'articles',
        item: String(id),
        comment: `version ${v.id} (draft): ${failed.publish_error}`,
      },
    ]);
    const revs = await api().get('/revisions').query({ 'filter[activity][_eq]': rows[0]!.id }).set(as).expect(200);
    expect(revs.body.data).toEqual([]);
  });
});
