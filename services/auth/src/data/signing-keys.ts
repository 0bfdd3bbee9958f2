import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, hkdfSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Jwk, JwkSet } from '@vellum/tokens';

export interface SigningKeys {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Current + previous public keys, by kid (verification accepts all of them). */
  verificationKeys: Map<string, KeyObject>;
  /** The public key set served at /auth/.well-known/jwks.json. */
  jwks: JwkSet;
  /** Secret derived from the private key: derives the successor of a rotated refresh token (HMAC). */
  rotationKey: Buffer;
}

export interface SigningKeyConfig {
  AUTH_PRIVATE_KEY?: string;
  AUTH_KEY_ID?: string;
  AUTH_PREVIOUS_PUBLIC_KEYS?: string;
  AUTH_KEYS_DIR?: string;
}

const KEY_FILE = 'auth-es256-private.pem';

/** RFC 7638 thumbprint of an EC public key: the default kid. */
export function thumbprint(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

function parsePrevious(text: string | undefined): Jwk[] {
  if (!text) return [];
  const parsed = JSON.parse(text) as JwkSet | Jwk[];
  const keys = Array.isArray(parsed) ? parsed : parsed.keys;
  for (const k of keys) if (!k.kid) throw new Error('AUTH_PREVIOUS_PUBLIC_KEYS: every key needs a "kid"');
  return keys;
}

/**
 * The ES256 signing key: from config (PEM), else generated once into AUTH_KEYS_DIR (mode 0600) and reused on
 * every start, else (tests) generated in memory. `onGenerated` is told when a new key was created.
 */
export function loadSigningKeys(config: SigningKeyConfig, onGenerated?: (where: string) => void): SigningKeys {
  let pem = config.AUTH_PRIVATE_KEY;
  if (!pem && config.AUTH_KEYS_DIR) {
    const file = path.join(config.AUTH_KEYS_DIR, KEY_FILE);
    if (existsSync(file)) {
      pem = readFileSync(file, 'utf8');
    } else {
      mkdirSync(config.AUTH_KEYS_DIR, { recursive: true, mode: 0o700 });
      pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      onGenerated?.(file);
    }
  }
  if (!pem) {
    pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    onGenerated?.('memory');
  }
  const privateKey = createPrivateKey(pem.replace(/\\n/g, '\n'));
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('AUTH_PRIVATE_KEY must be an EC P-256 key (ES256)');
  }
  const publicKey = createPublicKey(privateKey);
  const kid = config.AUTH_KEY_ID ?? thumbprint(publicKey);
  const current: Jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
  const previous = parsePrevious(config.AUTH_PREVIOUS_PUBLIC_KEYS).filter((k) => k.kid !== kid);
  const verificationKeys = new Map<string, KeyObject>([[kid, publicKey]]);
  for (const k of previous) verificationKeys.set(k.kid!, createPublicKey({ key: k, format: 'jwk' }));
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const rotationKey = Buffer.from(hkdfSync('sha256', der, 'vellum-auth', 'refresh-token-rotation', 32));
  return {
    kid,
    privateKey,
    publicKey,
    verificationKeys,
    jwks: { keys: [current, ...previous.map((k) => ({ alg: 'ES256', use: 'sig', ...k }))] },
    rotationKey,
  };
}
