import { runHealthChecks } from './health';

describe('health checks', () => {
  it('folds probes into the worst status and bounds slow ones', async () => {
    const r = await runHealthChecks(
      {
        db: async () => 'ok',
        nats: async () => ({ status: 'warn', reason: 'reconnecting' }),
        slow: () => new Promise(() => {}),
        broken: async () => {
          throw new Error('down');
        },
      },
      50,
    );
    expect(r.status).toBe('error');
    expect(r.checks.db.status).toBe('ok');
    expect(r.checks.nats).toMatchObject({ status: 'warn', reason: 'reconnecting' });
    expect(r.checks.slow).toMatchObject({ status: 'error', reason: 'no answer within 50 ms' });
    expect(r.checks.broken).toMatchObject({ status: 'error', reason: 'down' });
  });
  it('is ok when everything is ok', async () => {
    expect((await runHealthChecks({ a: async () => 'ok' })).status).toBe('ok');
  });
});
