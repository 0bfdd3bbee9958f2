import { hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SigningKeys } from './signing-keys';

const KEY_FILE = 'auth-tfa-encryption.key';

/** 32 bytes from 64 hex digits or base64/base64url; anything else is a configuration error. */
export function parseTfaKey(text: string): Buffer {
  const t = text.trim();
  if (/^[0-9a-f]{64}$/i.test(t)) return Buffer.from(t, 'hex');
  const b = Buffer.from(t, t.includes('-') || t.includes('_') ? 'base64url' : 'base64');
  if (b.length !== 32) throw new Error('AUTH_TFA_ENCRYPTION_KEY must be 32 bytes (64 hex digits or base64)');
  return b;
}

/**
 * The key that encrypts TOTP secrets at rest: AUTH_TFA_ENCRYPTION_KEY (or _FILE), else generated once into
 * AUTH_KEYS_DIR (mode 0600, the embedded topology), else derived (HKDF) from the ES256 signing key — which then
 * must not be rotated without setting AUTH_TFA_ENCRYPTION_KEY to the derived value first.
 */
export function loadTfaKey(
  config: { AUTH_TFA_ENCRYPTION_KEY?: string; AUTH_KEYS_DIR?: string },
  keys: SigningKeys,
  onGenerated?: (where: string) => void,
): Buffer {
  if (config.AUTH_TFA_ENCRYPTION_KEY) return parseTfaKey(config.AUTH_TFA_ENCRYPTION_KEY);
  if (config.AUTH_KEYS_DIR) {
    const file = path.join(config.AUTH_KEYS_DIR, KEY_FILE);
    if (existsSync(file)) return parseTfaKey(readFileSync(file, 'utf8'));
    mkdirSync(config.AUTH_KEYS_DIR, { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    writeFileSync(file, key.toString('hex'), { mode: 0o600, flag: 'wx' });
    onGenerated?.(file);
    return key;
  }
  return derivedTfaKey(keys.privateKey);
}

/** The TFA key derived (HKDF) from an ES256 signing key: what a deployment without AUTH_TFA_ENCRYPTION_KEY uses. */
export function derivedTfaKey(privateKey: KeyObject): Buffer {
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  return Buffer.from(hkdfSync('sha256', der, 'vellum-auth', 'tfa-secret-encryption', 32));
}
