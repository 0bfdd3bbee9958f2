import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));
  it('round-trips; every seal differs (random IV); the plaintext does not appear', () => {
    const a = box.seal('JBSWY3DPEHPK3PXP', 'tfa:u1');
    const b = box.seal('JBSWY3DPEHPK3PXP', 'tfa:u1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:/);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(a, 'tfa:u1')).toBe('JBSWY3DPEHPK3PXP');
  });
  it('refuses another key, another purpose, tampering and garbage', () => {
    const a = box.seal('secret', 'tfa:u1');
    expect(new SecretBox(randomBytes(32)).open(a, 'tfa:u1')).toBeUndefined();
    expect(box.open(a, 'tfa:u2')).toBeUndefined();
    const raw = Buffer.from(a.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(box.open('v1:' + raw.toString('base64url'), 'tfa:u1')).toBeUndefined();
    expect(box.open('plain-secret', 'tfa:u1')).toBeUndefined();
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(/32-byte/);
  });
});
