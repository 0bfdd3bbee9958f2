import { base32Decode, base32Encode, generateTotpSecret, hotp, otpauthUrl, timeStep, totpAt, verifyTotp } from './totp';

// RFC 6238 Appendix B, SHA-1 rows: seed "12345678901234567890", 8 digits.
const SEED = Buffer.from('12345678901234567890', 'ascii');
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('T = %i s → %s (RFC 6238 test vector, SHA-1)', (t, code) => {
    expect(hotp(SEED, timeStep(new Date(t * 1000)), 8)).toBe(code);
    // 6 digits are the last 6 of the 31-bit value mod 10^6
    expect(hotp(SEED, timeStep(new Date(t * 1000)))).toBe(code.slice(2));
  });

  it('RFC 4226 Appendix D HOTP values (counters 0..9)', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, i) => hotp(SEED, i))).toEqual(expected);
  });

  it('base32 round-trips and matches RFC 4648 vectors', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI======')!.toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb oi')!.toString()).toBe('foobar');
    expect(base32Decode('M1')).toBeUndefined();
    const s = generateTotpSecret();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(s)!.length).toBe(20);
  });

  it('verify: the current step and ±1 step match (returning the step); ±2 steps and malformed codes do not', () => {
    const secret = base32Encode(SEED);
    const at = new Date(1111111111 * 1000);
    const step = timeStep(at);
    for (const d of [-1, 0, 1]) expect(verifyTotp(secret, totpAt(secret, step + d), at)).toBe(step + d);
    for (const d of [-2, 2]) expect(verifyTotp(secret, totpAt(secret, step + d), at)).toBeUndefined();
    expect(verifyTotp(secret, '12345', at)).toBeUndefined();
    expect(verifyTotp(secret, '1234567', at)).toBeUndefined();
    expect(verifyTotp(secret, 'abcdef', at)).toBeUndefined();
    expect(verifyTotp('not base32!', '123456', at)).toBeUndefined();
  });

  it('otpauth URL carries the secret, issuer and parameters', () => {
    const u = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'ann@example.com', 'Vellum'));
    expect(u.protocol).toBe('otpauth:');
    expect(u.host).toBe('totp');
    expect(decodeURIComponent(u.pathname)).toBe('/Vellum:ann@example.com');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Vellum',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
