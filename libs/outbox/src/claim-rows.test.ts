import { claimRows } from './claim-rows';

describe('claimRows', () => {
  it('locks the oldest unpublished rows in seq order, skipping locked and awaiting ones, up to the batch size', async () => {
    const row = { id: 'a', destination: 'MAIL', subject: 'mail.send', payload: {}, headers: {} };
    const query = jest.fn().mockResolvedValue({ rows: [row] });
    await expect(claimRows({ query } as never, 25, new Set(['x', 'y']))).resolves.toEqual([row]);
    const [sql, params] = query.mock.calls[0]!;
    expect(sql.replace(/\s+/g, ' ')).toBe(
      'SELECT "id", "destination", "subject", "payload", "headers" FROM "outbox" WHERE "published_at" IS NULL AND NOT ("id" = ANY($2::uuid[])) ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED',
    );
    expect(params).toEqual([25, ['x', 'y']]);
  });
});
