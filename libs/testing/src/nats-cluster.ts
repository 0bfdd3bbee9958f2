import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@vellum/http';
import { natsProcess } from './nats-process';
import { natsServerBinary } from './nats-server';

/** One node of an own NATS cluster: SIGKILL and start again on the same ports and store. */
export interface OwnNatsNode {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface OwnNatsCluster {
  /** Every node's client URL, comma-separated (what NATS_URL takes). */
  servers: string;
  nodes: OwnNatsNode[];
  /** Stop every node and remove their stores. */
  destroy(): Promise<void>;
}

/** A JetStream cluster of `size` nats-servers of the test's own (free ports, own stores), for replication tests. */
export async function startOwnNatsCluster(size = 3): Promise<OwnNatsCluster> {
  const binary = natsServerBinary();
  if (!binary) throw new Error('no nats-server on PATH');
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (let i = 0; i < size; i++) {
    clientPorts.push(await freePort());
    routePorts.push(await freePort());
  }
  const routes = routePorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const dirs = clientPorts.map(() => mkdtempSync(join(tmpdir(), 'vellum-own-nats-cluster-')));
  const nodes = clientPorts.map((port, i): OwnNatsNode => ({
    url: `nats://127.0.0.1:${port}`,
    ...natsProcess(binary, port, [
      ...['-a', '127.0.0.1', '-p', String(port), '-n', `n${i}`, '-js', '-sd', dirs[i]!],
      ...['--cluster_name', 'vellum-test', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes],
    ]),
  }));
  await Promise.all(nodes.map((n) => n.start()));
  return {
    servers: nodes.map((n) => n.url).join(','),
    nodes,
    async destroy() {
      await Promise.all(nodes.map((n) => n.stop()));
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
