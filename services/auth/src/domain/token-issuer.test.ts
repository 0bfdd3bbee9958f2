import { newRefreshToken } from './token-issuer';

describe('newRefreshToken', () => {
  it('gives 256-bit base64url tokens, every one new, across the refills of its pool of random bytes', () => {
    const tokens = Array.from({ length: 64 * 5 + 7 }, () => newRefreshToken());
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // no token of zeroes (the bytes handed out are zeroed: a token read after that would show it)
    expect(tokens).not.toContain(Buffer.alloc(32).toString('base64url'));
  });
});
