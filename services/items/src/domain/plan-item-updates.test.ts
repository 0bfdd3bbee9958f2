import { planItemUpdates } from './plan-item-updates';
import { posts, thrown } from '../../test/domain-fixtures';

describe('planItemUpdates', () => {
  it('takes the key from the URL or from the payload, and never writes the key column', () => {
    expect(planItemUpdates(posts, [{ key: '7', data: { title: 'a' } }, { data: { id: 8, views: '2' } }], '*')).toEqual([
      { key: 7, values: { title: 'a' } },
      { key: 8, values: { views: 2 } },
    ]);
  });

  it('sending the item its own key back is harmless, in any spelling of that key', () => {
    expect(planItemUpdates(posts, [{ key: '7', data: { id: '7', title: 'a' } }], '*')).toEqual([{ key: 7, values: { title: 'a' } }]);
    expect(planItemUpdates(posts, [{ key: 7, data: { id: 7 } }], '*')).toEqual([{ key: 7, values: {} }]);
  });

  it('refuses to change a key (400), a change without a key (400), and a key that cannot exist (403, as a missing item)', () => {
    expect(thrown(() => planItemUpdates(posts, [{ key: '7', data: { id: 8 } }], '*'))).toMatchObject({
      status: 400,
      extensions: { reason: 'The primary key "id" can\'t be changed' },
    });
    expect(thrown(() => planItemUpdates(posts, [{ data: { title: 'a' } }], '*'))).toMatchObject({
      status: 400,
      extensions: { reason: 'Every item needs its primary key "id"' },
    });
    expect(thrown(() => planItemUpdates(posts, [{ key: 'abc', data: { title: 'a' } }], '*'))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(thrown(() => planItemUpdates(posts, [{ data: { id: null, title: 'a' } }], '*'))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  it('plans all or nothing: one bad update among good ones fails the whole plan', () => {
    expect(
      thrown(() =>
        planItemUpdates(
          posts,
          [
            { key: 1, data: { title: 'ok' } },
            { key: 2, data: { views: 'x' } },
          ],
          '*',
        ),
      ),
    ).toMatchObject({
      code: 'FAILED_VALIDATION',
      extensions: { field: 'views', type: 'integer' },
    });
  });

  it("checks the written fields against the caller's allowed ones (the key is not one of them)", () => {
    expect(planItemUpdates(posts, [{ data: { id: 3, title: 'x' } }], ['title'])).toEqual([{ key: 3, values: { title: 'x' } }]);
    expect(thrown(() => planItemUpdates(posts, [{ key: 3, data: { body: 'x' } }], ['title'])).status).toBe(403);
  });

  it("leaves the caller's payload as it was", () => {
    const data = { id: 3, title: 'x' };
    planItemUpdates(posts, [{ data }], '*');
    expect(data).toEqual({ id: 3, title: 'x' });
  });
});
