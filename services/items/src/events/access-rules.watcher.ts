import { ACCESS_BUCKET } from '@vellum/contracts';
import type { Logger } from '@vellum/logger';
import type { Messaging, Subscription } from '@vellum/messaging';
import type { AccessRules } from '../domain/access-rules';

/** Keep `rules` in step with the access-rules KV bucket (initial values, then every change). */
export async function watchAccessRules(messaging: Messaging, rules: AccessRules, logger?: Pick<Logger, 'warn'>): Promise<Subscription> {
  const kv = await messaging.keyValue<unknown>(ACCESS_BUCKET);
  return kv.watch((key, value) => {
    if (!rules.apply(key, value)) logger?.warn({ key }, 'access rules: ignoring an invalid entry, keeping the last copy');
  });
}
