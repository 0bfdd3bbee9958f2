import { REVOKED_SESSIONS_BUCKET } from '@vellum/contracts';
import type { KeyValueSource } from './key-value-source';

/** Revoked session and session-family ids, mirrored into memory from the auth service's map. */
export interface RevokedSessions {
  /** Synchronous: usable as `isSessionRevoked` by `authenticate`, the gateway's checks and `requestClaims`. */
  isRevoked(id: string): boolean;
  readonly size: number;
  stop(): Promise<void>;
}

/**
 * Watches REVOKED_SESSIONS_BUCKET (initial values, then every change) into a set, so tokens of an ended session die
 * at once everywhere; the last copy keeps answering while auth or NATS is down.
 */
export async function watchRevokedSessions(messaging: KeyValueSource): Promise<RevokedSessions> {
  const revoked = new Set<string>();
  const kv = await messaging.keyValue<unknown>(REVOKED_SESSIONS_BUCKET);
  const sub = await kv.watch((key, value) => {
    if (value === undefined || value === null) revoked.delete(key);
    else revoked.add(key);
  });
  return {
    isRevoked: (id) => revoked.has(id),
    get size() {
      return revoked.size;
    },
    stop: () => sub.stop(),
  };
}
