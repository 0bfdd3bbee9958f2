import request from 'supertest';
import { matchFastRoute } from '@vellum/http';
import { createHarness, itemEvent, type Harness } from './helpers';
import { ADMIN_AUTH } from './seed';

// Items as they were are answered on the service's fast lane (node's request and response, as the live items are by
// the items service): the same answer through the listener as through express.

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.writer.write([
    itemEvent({ collection: 'notes', item: '1', action: 'create', data: { id: 1, title: 'a' }, at: '2026-01-01T00:10:00.000Z', item_version: 1 }),
    itemEvent({ collection: 'notes', item: '1', action: 'update', data: { id: 1, title: 'b' }, at: '2026-01-01T00:20:00.000Z', item_version: 2 }),
  ]);
});
afterAll(() => h.close());

describe('items as they were, on the fast lane', () => {
  it('are fast routes with their parameters', () => {
    expect(matchFastRoute(h.app.app, 'GET', '/items/notes')?.params).toEqual({ collection: 'notes' });
    expect(matchFastRoute(h.app.app, 'GET', '/items/notes/1')?.params).toEqual({ collection: 'notes', id: '1' });
    expect(matchFastRoute(h.app.app, 'GET', '/revisions/1/compare/2')).toBeUndefined(); // on the router
  });

  it('answer through the listener as through express, errors in the envelope', async () => {
    for (const path of ['/items/notes?at=2026-01-01T00:15:00Z', '/items/notes/1?at=2026-01-01T00:15:00Z']) {
      const lane = await request(h.app.listener).get(path).set('Authorization', ADMIN_AUTH);
      const viaExpress = await request(h.app.app).get(path).set('Authorization', ADMIN_AUTH);
      expect(lane.status).toBe(200);
      expect(JSON.stringify(lane.body)).toContain('"title":"a"');
      expect(lane.body).toEqual(viaExpress.body);
    }
    const bad = await request(h.app.listener).get('/items/notes').set('Authorization', ADMIN_AUTH);
    expect([bad.status, bad.body.errors[0].extensions.code]).toEqual([400, 'INVALID_QUERY']);
  });
});
