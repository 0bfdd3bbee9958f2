import { deletePublished, markFailed, markPublished } from './mark-rows';

describe('mark-rows', () => {
  it('marks published rows at once (nothing to do for none)', async () => {
    const query = jest.fn().mockResolvedValue({ rows: [] });
    await markPublished({ query } as never, []);
    expect(query).not.toHaveBeenCalled();
    await markPublished({ query } as never, ['a', 'b']);
    expect(query).toHaveBeenCalledWith(`UPDATE "outbox" SET "published_at" = now() WHERE "id" = ANY($1::uuid[])`, [['a', 'b']]);
  });
  it('counts a failed attempt with its error, cut to 1,000 characters', async () => {
    const query = jest.fn().mockResolvedValue({ rows: [] });
    await markFailed({ query } as never, 'a', new Error('x'.repeat(1500)));
    expect(query).toHaveBeenCalledWith(`UPDATE "outbox" SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1`, ['a', 'x'.repeat(1000)]);
  });
  it('deletes published rows past the retention', async () => {
    const query = jest.fn().mockResolvedValue({ rows: [] });
    await deletePublished({ query } as never, 86_400_000);
    expect(query).toHaveBeenCalledWith(`DELETE FROM "outbox" WHERE "published_at" < now() - ($1::bigint * interval '1 millisecond')`, [86_400_000]);
  });
});
