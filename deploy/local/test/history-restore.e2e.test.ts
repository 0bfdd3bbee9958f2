import request from 'supertest';
import { applyJsonPatch, applyMergePatch, type Json } from '@vellum/contracts';
import { collectionWithId, eventually, startTestPlatform, type TestPlatform } from './platform-harness';

// Compare and restore through the gateway of the composed platform: GET /revisions/:a/compare/:b (JSON, JSON Patch,
// merge patch) and POST /revisions/:id/restore (a dry run, the write recorded as `revert`, twice = once, a deleted
// item re-created, 403 naming the collection with nothing applied).
type Rev = { id: number; data: Record<string, unknown> | null; activity: { action: string } };

describe('compare and restore revisions', () => {
  let p: TestPlatform;
  let admin: string;
  let reader: string;
  let editor: string;
  let id: number;
  const revs: Rev[] = [];
  const api = () => request(p.url);
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  const history = async (n: number): Promise<Rev[]> =>
    eventually(async () => {
      const r = await api()
        .get('/revisions')
        .query({ 'filter[collection][_eq]': 'pages', 'filter[item][_eq]': String(id), sort: 'id', fields: 'id,data,activity.action', limit: -1 })
        .set(as(admin));
      return r.body.data?.length >= n ? (r.body.data as Rev[]) : undefined;
    }, 30_000);

  async function user(name: string, permissions: { action: string; fields: string[] }[]): Promise<string> {
    const role = (await api().post('/roles').set(as(admin)).send({ name, app_access: true, admin_access: false })).body.data;
    for (const x of permissions)
      await api()
        .post('/permissions')
        .set(as(admin))
        .send({ role: role.id, collection: 'pages', ...x })
        .expect(200);
    const email = `${name.toLowerCase()}@example.com`;
    await api()
      .post('/users')
      .set(as(admin))
      .send({ email, password: `${name}-password-1`, role: role.id, status: 'active' })
      .expect(200);
    return (await p.login(email, `${name}-password-1`)).access_token;
  }

  beforeAll(async () => {
    p = await startTestPlatform();
    admin = (await p.login()).access_token;
    const fields = [
      { field: 'title', type: 'string' },
      { field: 'body', type: 'text' },
      { field: 'extra', type: 'string' },
    ];
    await api().post('/collections').set(as(admin)).send(collectionWithId('pages', fields)).expect(200);
    id = (await api().post('/items/pages').set(as(admin)).send({ title: 'first', body: 'a long body', extra: 'x' }).expect(200)).body.data.id;
    await api().patch(`/items/pages/${id}`).set(as(admin)).send({ title: 'second' }).expect(200);
    await api().patch(`/items/pages/${id}`).set(as(admin)).send({ body: 'a longer body', title: null }).expect(200);
    revs.push(...(await history(3)));
    await api().delete('/fields/pages/extra').set(as(admin)).expect(204);
    reader = await user('Reader', [{ action: 'read', fields: ['id', 'title'] }]);
    editor = await user('Editor', [
      { action: 'read', fields: ['*'] },
      { action: 'update', fields: ['title'] },
    ]);
  }, 60_000);
  afterAll(() => p?.close());

  it('compares two revisions: changed fields and each side, as JSON', async () => {
    const r = await api().get(`/revisions/${revs[0]!.id}/compare/${revs[2]!.id}`).set(as(admin)).expect(200);
    expect(r.body.data).toMatchObject({
      collection: 'pages',
      item: String(id),
      from: { revision: revs[0]!.id, deleted: false },
      to: { revision: revs[2]!.id, deleted: false },
      changed_fields: expect.arrayContaining(['title', 'body']),
      changes: { title: { from: 'first', to: null }, body: { from: 'a long body', to: 'a longer body' } },
    });
    // `live`: the item's newest revision
    const live = await api().get(`/revisions/${revs[0]!.id}/compare/live`).set(as(admin)).expect(200);
    expect(live.body.data.to.revision).toBe(revs[2]!.id);
  });

  it('answers a JSON Patch with test guards that turns a into b, and a merge patch only when b’s nulls can be written', async () => {
    const [a, b, c] = revs as [Rev, Rev, Rev];
    const jp = await api().get(`/revisions/${a.id}/compare/${c.id}`).set(as(admin)).set('Accept', 'application/json-patch+json').expect(200);
    expect(jp.headers['content-type']).toMatch(/^application\/json-patch\+json/);
    expect(jp.body).toContainEqual({ op: 'test', path: '/title', value: 'first' });
    expect(applyJsonPatch(a.data as Json, jp.body)).toEqual(c.data);
    const mp = await api().get(`/revisions/${a.id}/compare/${b.id}`).set(as(admin)).set('Accept', 'application/merge-patch+json').expect(200);
    expect(mp.headers['content-type']).toMatch(/^application\/merge-patch\+json/);
    expect(mp.body).toEqual({ title: 'second' });
    expect(applyMergePatch(a.data as Json, mp.body)).toEqual(b.data);
    // c sets title to null: a merge patch would read that as "remove title"
    const refused = await api().get(`/revisions/${a.id}/compare/${c.id}`).set(as(admin)).set('Accept', 'application/merge-patch+json');
    expect([refused.status, refused.body.errors[0].extensions.code]).toEqual([406, 'NOT_ACCEPTABLE']);
    // the other way round the null is in a: removing nothing, the patch writes title
    const back = await api().get(`/revisions/${c.id}/compare/${a.id}`).set(as(admin)).set('Accept', 'application/merge-patch+json').expect(200);
    expect(applyMergePatch(c.data as Json, back.body)).toEqual(a.data);
  });

  it('filters a comparison by the caller’s field permissions, and refuses revisions of two items or unknown ids', async () => {
    const r = await api().get(`/revisions/${revs[0]!.id}/compare/${revs[2]!.id}`).set(as(reader)).expect(200);
    expect(r.body.data.changed_fields).toEqual(['title']);
    expect(Object.keys(r.body.data.changes)).toEqual(['title']);
    const jp = await api().get(`/revisions/${revs[0]!.id}/compare/${revs[2]!.id}`).set(as(reader)).set('Accept', 'application/json-patch+json');
    expect(JSON.stringify(jp.body)).not.toContain('body');
    const other = (await api().post('/items/pages').set(as(admin)).send({ title: 'other' }).expect(200)).body.data.id;
    const otherRev = await eventually(async () => {
      const x = await api()
        .get('/revisions')
        .query({ 'filter[item][_eq]': String(other), 'filter[collection][_eq]': 'pages' })
        .set(as(admin));
      return x.body.data?.[0]?.id as number | undefined;
    });
    expect((await api().get(`/revisions/${revs[0]!.id}/compare/${otherRev}`).set(as(admin))).status).toBe(403);
    expect((await api().get(`/revisions/999999999/compare/live`).set(as(admin))).status).toBe(403);
    expect((await api().get(`/revisions/${revs[0]!.id}/compare/${revs[2]!.id}`)).status).toBe(403);
  });

  it('restores: a dry run answers the patch and the skipped fields and writes nothing; the restore is a `revert`; twice is once', async () => {
    const first = revs[0]!;
    const dry = await api().post(`/revisions/${first.id}/restore`).query({ dry_run: 'true' }).set(as(admin)).expect(200);
    expect(dry.body.data).toMatchObject({
      revision: first.id,
      action: 'update',
      changed_fields: ['title', 'body'],
      skipped: [{ field: 'extra', reason: 'dropped' }],
      applied: false,
    });
    expect(dry.body.data.patch).toEqual([
      { op: 'test', path: '/title', value: null },
      { op: 'replace', path: '/title', value: 'first' },
      { op: 'test', path: '/body', value: 'a longer body' },
      { op: 'replace', path: '/body', value: 'a long body' },
    ]);
    expect((await api().get(`/items/pages/${id}`).set(as(admin))).body.data).toEqual({ id, title: null, body: 'a longer body' });
    // a dry run asked for otherwise is refused, never taken for the restore itself (both were applied before)
    const unclear = await api().post(`/revisions/${first.id}/restore`).query({ dry_run: 'yes' }).set(as(admin));
    expect([unclear.status, unclear.body.errors[0].extensions.code]).toEqual([400, 'INVALID_QUERY']);
    const inBody = await api().post(`/revisions/${first.id}/restore`).send({ dry_run: true }).set(as(admin));
    expect([inBody.status, inBody.body.errors[0].extensions.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect((await api().get(`/items/pages/${id}`).set(as(admin))).body.data).toEqual({ id, title: null, body: 'a longer body' });

    const done = await api().post(`/revisions/${first.id}/restore`).set(as(admin)).expect(200);
    expect(done.body.data).toMatchObject({ action: 'update', applied: true });
    expect((await api().get(`/items/pages/${id}`).set(as(admin))).body.data).toEqual({ id, title: 'first', body: 'a long body' });
    const after = await history(4);
    expect(after[3]).toMatchObject({ activity: { action: 'revert' }, data: { id, title: 'first', body: 'a long body' } });

    const again = await api().post(`/revisions/${first.id}/restore`).set(as(admin)).expect(200);
    expect(again.body.data).toMatchObject({ action: 'none', applied: false, changed_fields: [], patch: [] });
    await new Promise((r) => setTimeout(r, 300));
    expect(await history(4)).toHaveLength(4);
  });

  it('needs update rights on every field it writes: 403 naming the collection, nothing applied', async () => {
    await api().patch(`/items/pages/${id}`).set(as(admin)).send({ title: 'changed', body: 'changed' }).expect(200);
    const all = await history(5);
    for (const token of [reader, editor]) {
      const r = await api().post(`/revisions/${revs[0]!.id}/restore`).set(as(token));
      expect(r.status).toBe(403);
      expect(r.body.errors[0].message).toContain('"pages"');
      expect(r.body.errors[0].extensions.collection).toBe('pages');
    }
    expect((await api().post(`/revisions/${revs[0]!.id}/restore`).set(as(editor))).body.errors[0].extensions.fields).toEqual(['body']);
    expect((await api().get(`/items/pages/${id}`).set(as(admin))).body.data).toEqual({ id, title: 'changed', body: 'changed' });
    // a restore that changes only what the editor may update goes through
    const titleOnly = all[1]!; // title "second", body as it was created
    await api().patch(`/items/pages/${id}`).set(as(admin)).send({ body: 'a long body' }).expect(200);
    const ok = await api().post(`/revisions/${titleOnly.id}/restore`).set(as(editor)).expect(200);
    expect(ok.body.data).toMatchObject({ action: 'update', changed_fields: ['title'], applied: true });
  });

  it('re-creates a deleted item, with its key', async () => {
    await api().delete(`/items/pages/${id}`).set(as(admin)).expect(204);
    const dry = await api().post(`/revisions/${revs[1]!.id}/restore`).query({ dry_run: 'true' }).set(as(admin)).expect(200);
    expect(dry.body.data).toMatchObject({ action: 'create', changed_fields: ['title', 'body'] });
    await api().post(`/revisions/${revs[1]!.id}/restore`).set(as(admin)).expect(200);
    expect((await api().get(`/items/pages/${id}`).set(as(admin))).body.data).toEqual({ id, title: 'second', body: 'a long body' });
    // a deletion itself is not a state to restore
    const all = await history(9);
    const deletion = all.find((r) => r.activity.action === 'delete')!;
    expect((await api().post(`/revisions/${deletion.id}/restore`).set(as(admin))).status).toBe(400);
  });
});
