import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// TOTP (RFC 6238 over RFC 4226 HOTP): HMAC-SHA-1, 6 digits, 30-second steps, ±1 step of clock drift.

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 4648 base32 (case-insensitive, padding and spaces ignored); undefined for a non-base32 string. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) return undefined;
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 160 random bits (RFC 4226's recommended length), base32. */
export const generateTotpSecret = (): string => base32Encode(randomBytes(20));

/** The time step of an instant. */
export const timeStep = (at: Date, stepSeconds = TOTP_STEP_SECONDS): number => Math.floor(at.getTime() / 1000 / stepSeconds);

/** HOTP(key, counter) truncated to `digits` (RFC 4226 §5.3, dynamic truncation). */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The code of a base32 secret at a time step. */
export function totpAt(secret: string, step: number, digits = TOTP_DIGITS): string {
  const key = base32Decode(secret);
  if (!key) throw new Error('TOTP secret is not base32');
  return hotp(key, step, digits);
}

/**
 * The time step whose code matches `code` within ±window steps of `at` (the nearest step first), or undefined.
 * Compares in constant time; a code of the wrong shape never matches.
 */
export function verifyTotp(secret: string, code: string, at: Date, window = TOTP_WINDOW): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const key = base32Decode(secret);
  if (!key || key.length === 0) return undefined;
  const now = timeStep(at);
  const given = Buffer.from(code);
  let found: number | undefined;
  for (const delta of [0, ...Array.from({ length: window }, (_, i) => [-(i + 1), i + 1]).flat()]) {
    const step = now + delta;
    if (step < 0) continue;
    // no early exit: every candidate is computed and compared
    if (timingSafeEqual(Buffer.from(hotp(key, step)), given) && found === undefined) found = step;
  }
  return found;
}

/** The otpauth:// URI an authenticator app scans (Key Uri Format). */
export function otpauthUrl(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const q = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${q.toString()}`;
}
