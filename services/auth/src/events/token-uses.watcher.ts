import { API_TOKEN_USES_BUCKET, type ApiTokenUse } from '@vellum/contracts';
import type { Messaging, Subscription } from '@vellum/messaging';
import type { AuthContext } from '../domain/context';
import { apiTokensUseCase } from '../domain/api-tokens.use-case';

/** Token uses reported by the gateway and the services → `last_used` and the `token_first_use` activity. */
export async function watchTokenUses(ctx: AuthContext, messaging: Messaging): Promise<Subscription> {
  const kv = await messaging.keyValue<ApiTokenUse>(API_TOKEN_USES_BUCKET);
  return kv.watch((tokenId, use) => {
    if (!use?.at) return;
    apiTokensUseCase.recordUse(ctx, tokenId, new Date(use.at)).catch((err: unknown) => ctx.logger.warn({ err, tokenId }, 'could not record an API token use'));
  });
}
