import type { ApiTokenEntry } from '@vellum/contracts';
import { apiTokenClaims, hashApiToken, isApiToken, tokenUseReporter, withApiTokens } from './api-tokens';
import type { TokenVerifier } from './token-verifier';

const entry: ApiTokenEntry = { id: 't1', user: 'u1', role: 'r1', admin: false, app: true, expires_at: '2030-01-01T00:00:00.000Z' };
const code = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code,
  );

describe('API tokens', () => {
  it('a JWT goes to the JWT verifier; anything else is looked up by its SHA-256, never cached', async () => {
    const jwt: TokenVerifier = { verify: jest.fn(async () => ({ id: 'jwt-user' }) as never) };
    const map = new Map([[hashApiToken('vlm_abc_secret'), entry]]);
    const v = withApiTokens(jwt, (h) => map.get(h), { now: () => Date.parse('2029-01-01') });
    expect((await v.verify('a.b.c')).id).toBe('jwt-user');
    expect(isApiToken('a.b.c')).toBe(false);
    expect(await v.verify('vlm_abc_secret')).toMatchObject({ id: 'u1', role: 'r1', admin_access: false, app_access: true, api_token: 't1' });
    map.clear(); // revoked: the next request is refused
    expect(await code(v.verify('vlm_abc_secret'))).toBe('INVALID_CREDENTIALS');
    expect(jwt.verify).toHaveBeenCalledTimes(1);
  });

  it('expired → TOKEN_EXPIRED; no expiry → a far exp', () => {
    expect(() => apiTokenClaims(entry, Date.parse('2030-01-01'))).toThrow(expect.objectContaining({ code: 'TOKEN_EXPIRED' }));
    expect(apiTokenClaims({ ...entry, expires_at: null }, Date.now()).exp).toBeGreaterThan(Date.now() / 1000 + 10 * 365 * 86400);
  });

  it('reports a token’s use at most once per interval', () => {
    let now = 0;
    const put = jest.fn(async () => undefined);
    const report = tokenUseReporter(put, 60_000, () => now);
    report(entry);
    report(entry);
    now = 59_999;
    report(entry);
    now = 60_000;
    report(entry);
    expect(put.mock.calls).toEqual([
      ['t1', { at: new Date(0).toISOString() }],
      ['t1', { at: new Date(60_000).toISOString() }],
    ]);
  });
});
