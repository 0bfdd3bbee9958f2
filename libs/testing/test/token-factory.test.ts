import { generateKeyPairSync } from 'node:crypto';
import { createTokenVerifier } from '@vellum/tokens';
import type { AppError } from '@vellum/errors';
import { testTokens } from '../src';

describe('testTokens', () => {
  const t = testTokens();
  const verifier = createTokenVerifier(t.keySource);
  const code = (token: string) =>
    verifier.verify(token).then(
      () => 'OK',
      (e: AppError) => e.code,
    );

  it('signs tokens the platform verifies, with the contract claims', async () => {
    await expect(verifier.verify(t.sign({ id: 'u1', role: 'r1' }))).resolves.toMatchObject({
      id: 'u1',
      role: 'r1',
      app_access: true,
      admin_access: false,
      iss: 'vellum',
    });
  });
  it('makes expired, foreign-issuer, unknown-kid and forged tokens', async () => {
    expect(await code(t.sign({ id: 'u' }, { expiresIn: -5 }))).toBe('TOKEN_EXPIRED');
    expect(await code(t.sign({ id: 'u' }, { issuer: 'evil' }))).toBe('INVALID_TOKEN');
    expect(await code(t.sign({ id: 'u' }, { keyid: 'other' }))).toBe('INVALID_TOKEN');
    expect(await code(t.sign({ id: 'u' }, { key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey }))).toBe('INVALID_TOKEN');
  });
});
