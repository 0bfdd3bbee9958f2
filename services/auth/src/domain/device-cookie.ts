import { createHash, createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { SigningKeys } from '../data/signing-keys';

/** What a device cookie carries: the device, the user it is bound to, and its current secret. */
export interface DeviceCredential {
  deviceId: string;
  userId: string;
  secret: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The stored form of a device secret (the cookie's secret is never stored). */
export const deviceSecretHash = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** The device id as audit records show it: a hash, never the id a cookie is looked up by. */
export const hashedDeviceId = (deviceId: string) => createHash('sha256').update(deviceId).digest('base64url').slice(0, 22);

/**
 * Device cookies, `v1.<device>.<user>.<secret>.<mac>`: HMAC-SHA256 with a key derived from the signing key, so a
 * forged or altered cookie is refused without a database read; the secret is then checked against the device's
 * stored hash (and replaced at each use).
 */
export class DeviceCookieSealer {
  private readonly key: Buffer;
  constructor(keys: SigningKeys) {
    const der = keys.privateKey.export({ format: 'der', type: 'pkcs8' });
    this.key = Buffer.from(hkdfSync('sha256', der, 'vellum-auth', 'device-cookie', 32));
  }

  /** A new credential: for a new device (no id given) or a rotation of an existing one. */
  issue(userId: string, deviceId: string = randomUUID()): DeviceCredential {
    return { deviceId, userId, secret: randomBytes(24).toString('base64url') };
  }

  seal(c: DeviceCredential): string {
    const body = `v1.${c.deviceId}.${c.userId}.${c.secret}`;
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The credential when the cookie is well-formed and its MAC holds; else undefined. */
  open(value: string | undefined): DeviceCredential | undefined {
    if (!value || value.length > 256) return undefined;
    const parts = value.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1' || !UUID.test(parts[1]!) || !UUID.test(parts[2]!)) return undefined;
    const body = parts.slice(0, 4).join('.');
    const given = Buffer.from(parts[4]!, 'base64url');
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    return { deviceId: parts[1]!, userId: parts[2]!, secret: parts[3]! };
  }

  private mac(body: string) {
    return createHmac('sha256', this.key).update(body).digest();
  }
}
