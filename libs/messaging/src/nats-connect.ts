import { jetstreamManager } from '@nats-io/jetstream';
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import type { NatsMessagingOptions } from './nats-messaging';
import { assertSupportedServer, noJetStream } from './nats-server-version';

/**
 * The connection (reconnecting forever in the background) to a server this library supports, with JetStream on;
 * closed again when the server does not qualify.
 */
export async function connectNats(opts: NatsMessagingOptions, timeoutMs: number): Promise<NatsConnection> {
  const nc = await connect({
    servers: opts.servers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    name: opts.name,
    user: opts.user,
    pass: opts.password,
    token: opts.token,
    ...(opts.credsFile && { authenticator: credsAuthenticator(() => readFileSync(opts.credsFile!)) }),
    ...(opts.tls && { tls: opts.tls }),
    timeout: opts.connectTimeoutMs ?? 5000,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
    pingInterval: 20_000,
  });
  try {
    assertSupportedServer(nc.info, opts.servers);
    // 2.9 leaves `jetstream` out of its INFO when it is off: ask. No responders = JetStream is not running.
    if (nc.info?.jetstream !== true)
      await jetstreamManager(nc, { timeout: timeoutMs }).catch((err: Error) => {
        if (/no responders|503|not enabled/i.test(`${err.message} ${String(err.cause ?? '')}`)) throw noJetStream(nc.info?.version ?? 'unknown', opts.servers);
      });
  } catch (err) {
    await nc.close();
    throw err;
  }
  return nc;
}
