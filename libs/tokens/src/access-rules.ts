import { ACCESS_BUCKET, PUBLIC_ROLE_KEY, roleAccessSchema, type RoleAccess } from '@vellum/contracts';
import type { KeyValueSource } from './key-value-source';

/**
 * The access-rules map auth publishes (ACCESS_BUCKET), held in memory: key = role id, or `public` for the public
 * role. Services extend it with their own questions (items' `AccessRules`) or read it as it is (revisions).
 */
export class AccessRuleMap {
  private readonly byRole = new Map<string, RoleAccess>();

  /** A fixed map (tests, tools). */
  static of(map: Record<string, RoleAccess>): AccessRuleMap {
    const rules = new AccessRuleMap();
    for (const [key, value] of Object.entries(map)) rules.byRole.set(key, value);
    return rules;
  }

  /** Apply one change; an invalid value is ignored (the last good copy stays). Returns false when ignored. */
  apply(key: string, value: unknown): boolean {
    if (value === undefined || value === null) {
      this.byRole.delete(key);
      return true;
    }
    const parsed = roleAccessSchema.safeParse(value);
    if (!parsed.success) return false;
    this.byRole.set(key, parsed.data);
    return true;
  }

  /** The rules of a role; `null` = the public role. */
  get(role: string | null): RoleAccess | undefined {
    return this.byRole.get(role ?? PUBLIC_ROLE_KEY);
  }

  get size(): number {
    return this.byRole.size;
  }
}

export interface WatchAccessRulesOptions<M extends AccessRuleMap> {
  /** The map to keep in step (default a new AccessRuleMap). */
  into?: M;
  logger?: { warn(obj: object, msg: string): void };
}

/**
 * Keeps an access-rules map in step with ACCESS_BUCKET (initial values, then every change as soon as the watch
 * delivers it); the last copy keeps answering while auth or NATS is down, and a malformed entry is logged and
 * ignored.
 */
export async function watchAccessRules<M extends AccessRuleMap = AccessRuleMap>(
  messaging: KeyValueSource,
  { into, logger }: WatchAccessRulesOptions<M> = {},
): Promise<{ rules: M; stop(): Promise<void> }> {
  const rules = into ?? (new AccessRuleMap() as M);
  const kv = await messaging.keyValue<unknown>(ACCESS_BUCKET);
  const sub = await kv.watch((key, value) => {
    if (!rules.apply(key, value)) logger?.warn({ key }, 'access rules: ignoring an invalid entry, keeping the last copy');
  });
  return { rules, stop: () => sub.stop() };
}
