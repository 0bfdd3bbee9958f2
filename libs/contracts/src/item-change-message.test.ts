import { ITEMS_STREAM, itemChangeEventSchema, itemChangeMessage } from './index';

const at = new Date('2026-11-23T10:00:00.000Z');

describe('itemChangeMessage', () => {
  it('builds a valid event on items.<collection>.<action>, its id the message id', () => {
    const m = itemChangeMessage({
      collection: 'articles',
      item: '7',
      action: 'update',
      data: { id: 7, title: 'x' },
      delta: { title: 'x' },
      actor: { user: 'u1', role: 'r1', ip: '10.0.0.1', userAgent: 'ua', origin: 'https://a.example' },
      at,
    });
    expect(itemChangeEventSchema.parse(m.payload)).toEqual(m.payload);
    expect(m).toMatchObject({ id: m.payload.id, destination: ITEMS_STREAM, subject: 'items.articles.update' });
    expect(m.payload).toMatchObject({
      v: 1,
      collection: 'articles',
      item: '7',
      action: 'update',
      delta: { title: 'x' },
      actor: { user: 'u1', role: 'r1', ip: '10.0.0.1', user_agent: 'ua', origin: 'https://a.example' },
      timestamp: '2026-11-23T10:00:00.000Z',
    });
  });

  it('fills every actor field, leaves out delta and headers unless given, and never reuses an id', () => {
    const a = itemChangeMessage({ collection: 'vellum_users', item: 'u2', action: 'delete', data: null, actor: { user: null }, at });
    const b = itemChangeMessage({ collection: 'vellum_users', item: 'u2', action: 'delete', data: null, actor: { user: null }, at }, { 'x-request-id': 'r' });
    expect(a.payload.actor).toEqual({ user: null, role: null, ip: null, user_agent: null, origin: null });
    expect('delta' in a.payload).toBe(false);
    expect('headers' in a).toBe(false);
    expect(b.headers).toEqual({ 'x-request-id': 'r' });
    expect(a.id).not.toBe(b.id);
  });
});
