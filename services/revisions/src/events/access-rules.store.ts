import { ACCESS_BUCKET, PUBLIC_ROLE_KEY, roleAccessSchema, type RoleAccess } from '@vellum/contracts';
import type { Messaging, Subscription } from '@vellum/messaging';

/** Role id (or 'public') → access rules; answers from memory. */
export interface AccessRules {
  get(role: string | null): RoleAccess | undefined;
}

/** A fixed map (tests, tools). */
export function staticAccessRules(map: Record<string, RoleAccess>): AccessRules {
  return { get: (role) => map[role ?? PUBLIC_ROLE_KEY] };
}

/**
 * The access-rules map auth publishes, watched into memory: every change lands here as soon as the KV watch
 * delivers it, and the last copy keeps answering while auth or NATS is down.
 */
export async function watchAccessRules(
  messaging: Messaging,
  logger?: { warn(obj: object, msg: string): void },
): Promise<AccessRules & { stop(): Promise<void> }> {
  const map = new Map<string, RoleAccess>();
  const kv = await messaging.keyValue<RoleAccess>(ACCESS_BUCKET);
  const sub: Subscription = await kv.watch((key, value) => {
    if (value === undefined) {
      map.delete(key);
      return;
    }
    const parsed = roleAccessSchema.safeParse(value);
    if (parsed.success) map.set(key, parsed.data);
    else logger?.warn({ key }, 'ignoring a malformed access-rules entry');
  });
  return { get: (role) => map.get(role ?? PUBLIC_ROLE_KEY), stop: () => sub.stop() };
}
