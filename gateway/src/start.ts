import type { Logger } from '@vellum/logger';
import type { Messaging } from '@vellum/messaging';
import { listenOn, type HealthProbe, type LocalServices, type RunningService } from '@vellum/http';
import { apiTokensFrom, watchRevokedSessions, type RevokedSessions } from '@vellum/tokens';
import type { Registry } from '@vellum/metrics';
import type { GatewayConfig } from './config';
import { createGateway } from './app';

export interface StartGatewayDeps {
  logger: Logger;
  /** When given, revoked session ids and valid API tokens are watched so both take effect at the gateway at once. */
  messaging?: Messaging;
  /** The process's metrics registry. */
  metrics?: Registry;
  /** The embedded topology: services in this process get their requests handed over without a socket. */
  local?: LocalServices;
}

/** Build the gateway from config, listen on PORT/HOST (0 = any free port); stop() drains and closes everything. */
export async function startGateway(config: GatewayConfig, { logger, messaging, metrics, local }: StartGatewayDeps): Promise<RunningService> {
  let revoked: RevokedSessions | undefined;
  let apiTokens: Awaited<ReturnType<typeof apiTokensFrom>> | undefined;
  const healthProbes: Record<string, HealthProbe> = {};
  if (messaging) {
    revoked = await watchRevokedSessions(messaging);
    apiTokens = await apiTokensFrom(messaging);
    healthProbes.messaging = async () => {
      const h = await messaging.health();
      // The gateway only reads revocations from messaging; services check them again, so down = warn.
      return h.status === 'ok' ? 'ok' : { status: 'warn', reason: h.reason };
    };
  }
  const gateway = await createGateway({
    config,
    logger,
    isSessionRevoked: revoked?.isRevoked,
    apiTokens,
    onTokenUse: apiTokens?.onUse,
    healthProbes,
    metrics,
    localServices: local,
  });
  const listening = await listenOn(gateway.listener, config.PORT, config.HOST);
  logger.info({ url: listening.url }, 'gateway listening');
  return {
    name: 'gateway',
    url: listening.url,
    health: gateway.health,
    async stop() {
      // event streams never finish: cut them (their clients resume elsewhere) so the drain does not wait for them
      gateway.eventStreams.cutAll();
      await listening.close();
      await revoked?.stop();
      await apiTokens?.stop();
      await gateway.close();
    },
  };
}
