import { REVOKED_SESSIONS_BUCKET } from '@vellum/contracts';
import type { Messaging } from '@vellum/messaging';

/** Revoked session ids, watched into memory (session-mode tokens die at once on logout). */
export async function watchRevokedSessions(messaging: Messaging) {
  const revoked = new Set<string>();
  const kv = await messaging.keyValue<unknown>(REVOKED_SESSIONS_BUCKET);
  const sub = await kv.watch((key, value) => {
    if (value === undefined) revoked.delete(key);
    else revoked.add(key);
  });
  return { isRevoked: (id: string) => revoked.has(id), stop: () => sub.stop() };
}
