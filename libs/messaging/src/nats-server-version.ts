/** The oldest nats-server Vellum runs on (Debian's 2.9: JetStream with KV and pull consumers). */
export const MIN_NATS_SERVER = '2.9.0';

function parse(v: string): number[] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Negative when a < b, 0 when equal, positive when a > b (major.minor.patch; a pre-release suffix is ignored). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parse(a), parse(b)];
  if (!x || !y) throw new Error(`not a version: "${x ? b : a}"`);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * Refuses a server this code cannot rely on, with a message an operator can act on: older than 2.9, or without
 * JetStream. Called with the INFO the server sent at connect.
 */
export function assertSupportedServer(info: { version?: string; jetstream?: boolean } | undefined, servers: string): void {
  const version = info?.version ?? 'unknown';
  if (!parse(version) || compareVersions(version, MIN_NATS_SERVER) < 0)
    throw new Error(`nats-server ${version} at ${servers} is not supported: Vellum needs nats-server ${MIN_NATS_SERVER} or newer (2.9.x–2.12.x are tested)`);
  if (info?.jetstream === false) throw noJetStream(version, servers);
}

export const noJetStream = (version: string, servers: string): Error =>
  new Error(`nats-server ${version} at ${servers} runs without JetStream: start it with -js (--jetstream)`);
