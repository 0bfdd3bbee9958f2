import { natsServerBinary } from '@vellum/testing';
import { useDistributedPlatform } from './distributed-process';
import { loginFrom } from './platform-harness';

// Issue 17.1 in `npm run start:distributed` (one process per service): the services believe the gateway's
// X-Forwarded-For, so auth's failed-login budget is per client, not per gateway. Two clients on two loopback
// addresses (127.0.0.2, 127.0.0.3), nothing trusted at the gateway (the default): each has its own budget.
const run = natsServerBinary() ? describe : describe.skip;

run('distributed topology: the client address reaches the services', () => {
  const platform = useDistributedPlatform('vellum-dist-ip-', { AUTH_LOGIN_FAILURES_PER_ADDRESS: '3', AUTH_LOGIN_FAILURES_PER_ACCOUNT: '0' });

  it('failed logins count per forwarded client at auth: one client spends its budget, another still may try', async () => {
    const login = async (from: string) =>
      (await loginFrom(platform.port, from, { email: 'nobody@example.com', password: 'wrong-password' }, { 'x-forwarded-for': '198.51.100.1' })).status;
    // the spoofed X-Forwarded-For is ignored by the gateway (trusts nobody); auth sees each client's own address
    const a = [];
    for (let i = 0; i < 4; i++) a.push(await login('127.0.0.2'));
    expect({ a, out: a[3] === 429 ? '' : platform.out.slice(-2000) }).toEqual({ a: [401, 401, 401, 429], out: '' });
    expect(await login('127.0.0.3')).toBe(401);
  });
});
