import type { Request } from 'express';
import type { AccessTokenClaims } from './claims';
import { isAdminRequest, requestClaims } from './is-admin-request';
import type { TokenVerifier } from './token-verifier';

const claims = { id: 'u1', role: 'r1', admin_access: true, app_access: true, session: 's1', sid: 'f1' } as AccessTokenClaims;
const verifier = { verify: async () => claims } as unknown as TokenVerifier;
const req = { headers: { authorization: 'Bearer x.y.z' }, query: {} } as unknown as Request;

describe('requestClaims / isAdminRequest', () => {
  it('an admin token reads as admin', async () => {
    expect(await isAdminRequest(verifier)(req)).toBe(true);
  });

  it.each([
    ['its session row', 'session', 's1'],
    ['its session family (every device signed out)', 'family', 'f1'],
  ])('a token whose %s is revoked counts as none', async (_what, kind, id) => {
    const isSessionRevoked = (x: string, k: string) => k === kind && x === id;
    expect(await requestClaims(verifier, { isSessionRevoked })(req)).toBeUndefined();
    expect(await isAdminRequest(verifier, { isSessionRevoked })(req)).toBe(false);
  });

  it('a token that fails verification counts as none (never throws)', async () => {
    const bad = { verify: async () => Promise.reject(new Error('bad')) } as unknown as TokenVerifier;
    expect(await isAdminRequest(bad)(req)).toBe(false);
  });
});
