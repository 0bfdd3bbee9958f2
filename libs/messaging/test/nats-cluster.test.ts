import { randomBytes } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { natsServerBinary, startOwnNatsCluster, type OwnNatsCluster } from '@vellum/testing';
import { connectNatsMessaging, type NatsMessaging } from '../src';

const natsUrl = process.env.NATS_URL || process.env.TEST_NATS_URL;
const nats = natsServerBinary();
if (natsUrl && !nats) console.warn('######## SKIPPED: NATS cluster test — no nats-server binary on PATH ########');

/** Retries until the cluster's JetStream has a leader and answers (a fresh cluster takes a few seconds). */
async function ready<T>(fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() - start > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

// NATS_REPLICAS: each stream and bucket kept on that many nodes of a JetStream cluster, so a publish is acknowledged
// once most of them stored it, and the SIGKILL of one node loses nothing acknowledged and stops nothing.
(natsUrl && nats ? describe : describe.skip)('NATS_REPLICAS on a three-node JetStream cluster', () => {
  let cluster: OwnNatsCluster;
  let jsm: JetStreamManager;
  let m: NatsMessaging;
  const prefix = `t${randomBytes(4).toString('hex')}_`;

  beforeAll(async () => {
    cluster = await startOwnNatsCluster(3);
    m = await connectNatsMessaging({ servers: cluster.servers, name: 'cluster-test', prefix, replicas: 3 });
    jsm = await ready(() => jetstreamManager(m.connection));
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await cluster?.destroy();
  });

  it('creates streams, dead letters and buckets with the replicas, and scales one made before with fewer', async () => {
    const one = await connectNatsMessaging({ servers: cluster.servers, name: 'cluster-r1', prefix });
    try {
      await ready(() => one.workQueue('OLD', { subjects: ['old.>'] }));
      expect((await jsm.streams.info(`${prefix}OLD`)).config.num_replicas).toBe(1);
      await one.keyValue('seen');
    } finally {
      await one.close();
    }
    await ready(() => m.workQueue('OLD', { subjects: ['old.>'] }));
    await m.eventStream('EVENTS', { subjects: ['events.>'] });
    await m.keyValue('seen');
    for (const stream of ['OLD', 'OLD_DLQ', 'EVENTS', 'EVENTS_DLQ'])
      expect({ stream, replicas: (await jsm.streams.info(`${prefix}${stream}`)).config.num_replicas }).toEqual({ stream, replicas: 3 });
    expect((await jsm.streams.info(`KV_${prefix}seen`)).config.num_replicas).toBe(3);
  }, 60_000);

  it('SIGKILL of the node leading the stream, right after 50 acknowledged publishes: all 50 are consumed, the node left dead', async () => {
    const q = await ready(() => m.workQueue('JOBS', { subjects: ['jobs.>'] }));
    const got = new Set<string>();
    const sub = await q.consume({ durable: 'worker', concurrency: 8, handler: async (d) => void got.add(d.id) });
    const ids = Array.from({ length: 50 }, (_, i) => `job-${i}`);
    await Promise.all(ids.map((id) => q.publish('jobs.run', { id }, { id })));
    const leader = (await jsm.streams.info(`${prefix}JOBS`)).cluster?.leader;
    const node = cluster.nodes[Number(leader?.slice(1))];
    expect(node).toBeDefined();
    await node!.stop();

    const start = Date.now();
    while (ids.some((id) => !got.has(id)) && Date.now() - start < 45_000) await new Promise((r) => setTimeout(r, 100));
    expect(ids.filter((id) => !got.has(id))).toEqual([]);
    // and the queue still takes new work with the node down
    await ready(() => q.publish('jobs.run', {}, { id: 'after' }));
    while (!got.has('after') && Date.now() - start < 60_000) await new Promise((r) => setTimeout(r, 100));
    expect(got.has('after')).toBe(true);
    await sub.stop();
    await node!.start();
  }, 120_000);
});
