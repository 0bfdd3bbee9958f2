import { errors } from '@vellum/errors';
import type { AccessTokenClaims } from '@vellum/tokens';
import { cachedTokenVerifier } from './cached-token-verifier';

const claims = (exp: number): AccessTokenClaims => ({ id: 'u', role: null, app_access: true, admin_access: false, iss: 'vellum', iat: 0, exp });

describe('cachedTokenVerifier', () => {
  it('verifies a token once until it expires, never caches failures, and bounds its size', async () => {
    let now = 1_000_000;
    const calls: string[] = [];
    const inner = {
      verify: async (t: string) => {
        calls.push(t);
        if (t === 'bad') throw errors.invalidToken();
        if (t === 'expired' && now >= 2_000_000) throw errors.tokenExpired();
        return claims(2_000);
      },
    };
    const v = cachedTokenVerifier(inner, 2, () => now);
    await v.verify('a');
    await v.verify('a');
    expect(calls).toEqual(['a']);
    await expect(v.verify('bad')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    await expect(v.verify('bad')).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    expect(calls).toEqual(['a', 'bad', 'bad']);
    await v.verify('expired');
    now = 2_000_000;
    await expect(v.verify('expired')).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    await v.verify('b');
    await v.verify('c');
    await v.verify('a');
    expect(calls.filter((c) => c === 'a')).toHaveLength(2);
  });
});
