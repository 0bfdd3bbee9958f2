import type { Pool } from 'pg';
import type { Db, Device } from './prisma';

export type DeviceTrust = 'login' | 'password_reset' | 'invite';

export interface NewDevice {
  id: string;
  userId: string;
  secretHash: string;
  ip: string | null;
  userAgent: string | null;
  trustedBy: DeviceTrust;
  now: Date;
}

// Plain SQL on the login path (named statements, prepared once per connection); Prisma for the profile's lists.
const IS_TRUSTED = `SELECT 1 FROM "devices" WHERE "id" = $1::uuid AND "user_id" = $2::uuid AND "secret_hash" = $3`;
const ROTATE = `
UPDATE "devices" SET "secret_hash" = $4, "last_used_at" = $5, "ip" = $6, "user_agent" = $7
 WHERE "id" = $1::uuid AND "user_id" = $2::uuid AND "secret_hash" = $3`;
const CREATE = `
INSERT INTO "devices" ("id", "user_id", "secret_hash", "ip", "user_agent", "trusted_by", "created_at", "last_used_at")
VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7, $7)`;

export const deviceRepository = {
  /** Whether the device exists, belongs to the user and the secret is its current one. */
  async isTrusted(pg: Pick<Pool, 'query'>, deviceId: string, userId: string, secretHash: string): Promise<boolean> {
    const { rowCount } = await pg.query({ name: 'auth_device_trusted', text: IS_TRUSTED, values: [deviceId, userId, secretHash] });
    return (rowCount ?? 0) > 0;
  },
  /** Replaces the device's secret (compare-and-set on the old one); false when it was not the current one. */
  async rotate(pg: Pick<Pool, 'query'>, d: { id: string; userId: string; oldHash: string; newHash: string; ip: string | null; userAgent: string | null; now: Date }): Promise<boolean> {
    const { rowCount } = await pg.query({ name: 'auth_device_rotate', text: ROTATE, values: [d.id, d.userId, d.oldHash, d.newHash, d.now, d.ip, d.userAgent] });
    return (rowCount ?? 0) > 0;
  },
  /** False when the user is gone (deleted while logging in: the foreign key refuses the row). */
  async create(pg: Pick<Pool, 'query'>, d: NewDevice): Promise<boolean> {
    try {
      await pg.query({ name: 'auth_device_create', text: CREATE, values: [d.id, d.userId, d.secretHash, d.ip, d.userAgent, d.trustedBy, d.now] });
      return true;
    } catch (e) {
      if ((e as { code?: string }).code === '23503') return false;
      throw e;
    }
  },
  list(db: Db, userId: string): Promise<Device[]> {
    return db.device.findMany({ where: { user_id: userId }, orderBy: { last_used_at: 'desc' } });
  },
  async ids(db: Db, userId: string): Promise<string[]> {
    return (await db.device.findMany({ where: { user_id: userId }, select: { id: true } })).map((d) => d.id);
  },
  /** Whether the device was the user's (and is now forgotten). */
  async remove(db: Db, userId: string, deviceId: string): Promise<boolean> {
    return (await db.device.deleteMany({ where: { id: deviceId, user_id: userId } })).count > 0;
  },
};
