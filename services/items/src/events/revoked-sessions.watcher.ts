import { REVOKED_SESSIONS_BUCKET } from '@vellum/contracts';
import type { Messaging, Subscription } from '@vellum/messaging';

/** Revoked session ids, watched into a set (session tokens die at once on logout). */
export async function watchRevokedSessions(messaging: Messaging): Promise<{ revoked: Set<string>; subscription: Subscription }> {
  const revoked = new Set<string>();
  const kv = await messaging.keyValue<unknown>(REVOKED_SESSIONS_BUCKET);
  const subscription = await kv.watch((key, value) => {
    if (value === undefined) revoked.delete(key);
    else revoked.add(key);
  });
  return { revoked, subscription };
}
