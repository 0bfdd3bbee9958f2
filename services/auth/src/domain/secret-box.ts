import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'v1:';

/**
 * AES-256-GCM for secrets at rest (the TOTP secret): "v1:" + base64url(iv ‖ tag ‖ ciphertext), with a 96-bit
 * random IV per value and the row's purpose bound in as additional data (a value copied to another user or
 * column does not decrypt).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return PREFIX + Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64url');
  }

  /** The plaintext, or undefined for a value this key (and purpose) did not seal. */
  open(sealed: string, aad: string): string | undefined {
    if (!sealed.startsWith(PREFIX)) return undefined;
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
    if (raw.length < 29) return undefined;
    try {
      const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      d.setAAD(Buffer.from(aad));
      d.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
