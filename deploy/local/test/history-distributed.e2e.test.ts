import request from 'supertest';
import { natsServerBinary } from '@vellum/testing';
import { useDistributedPlatform } from './distributed-process';
import { collectionWithId, eventually } from './platform-harness';

// The history routes in `npm run start:distributed` (one process per service): the gateway sends a read of an item
// as it was to the revisions process and a restore to the items process, which reads the revision from the
// revisions process over HTTP (REVISIONS_URL) with the caller's credentials.
const run = natsServerBinary() ? describe : describe.skip;

run('distributed topology: items as they were and restore across processes', () => {
  const platform = useDistributedPlatform('vellum-dist-history-');

  it('answers ?at= from the revisions process and restores through the items process', async () => {
    const api = request(platform.url);
    const as = { Authorization: `Bearer ${await platform.adminToken()}` };
    await api
      .post('/collections')
      .set(as)
      .send(collectionWithId('docs', [{ field: 'title', type: 'string' }]))
      .expect(200);
    const id = (await api.post('/items/docs').set(as).send({ title: 'one' }).expect(200)).body.data.id as number;
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await api.patch(`/items/docs/${id}`).set(as).send({ title: 'two' }).expect(200);
    const revs = await eventually(async () => {
      const r = await api.get('/revisions').query({ 'filter[collection][_eq]': 'docs', sort: 'id' }).set(as);
      return r.body.data?.length === 2 ? (r.body.data as { id: number }[]) : undefined;
    }, 20_000);

    const past = await api.get(`/items/docs/${id}`).query({ at: between }).set(as).expect(200);
    expect(past.body.data).toEqual({ id, title: 'one', $meta: { revision: revs[0]!.id, at: expect.any(String) } });
    expect((await api.get(`/items/docs/${id}`).set(as).expect(200)).body.data).toEqual({ id, title: 'two' });

    const restored = await api.post(`/revisions/${revs[0]!.id}/restore`).set(as).expect(200);
    expect(restored.body.data).toMatchObject({ action: 'update', changed_fields: ['title'], applied: true });
    expect((await api.get(`/items/docs/${id}`).set(as).expect(200)).body.data).toEqual({ id, title: 'one' });
    // without credentials the revisions process refuses the revision: nothing is written
    expect((await api.post(`/revisions/${revs[1]!.id}/restore`)).status).toBe(403);
    expect((await api.get(`/items/docs/${id}`).set(as).expect(200)).body.data.title).toBe('one');
  }, 60_000);
});
