import http from 'node:http';
import https from 'node:https';
import { Pool } from 'undici';

export interface Replica {
  url: URL;
  /** The proxy's connection pool (undici: markedly less CPU per request than http.request + Agent). */
  client: Pool;
  /** node:http keep-alive pool, for health probes. */
  agent: http.Agent;
  /** Skipped by round-robin until this time (ms since epoch) after a failed connect. */
  downUntil: number;
  failures: number;
}

interface UpstreamPoolOptions {
  maxSockets?: number;
  /** Time allowed to open a TCP connection. */
  connectTimeoutMs?: number;
  /** Until the status line + headers, and then the idle limit while the body streams. */
  responseTimeoutMs?: number;
  /** How long a replica whose connect failed is skipped. */
  failCooldownMs?: number;
  now?: () => number;
}

/**
 * The replicas of one service: round-robin over keep-alive connection pools, with passive health — a replica
 * whose connect fails is skipped for `failCooldownMs`. When every replica is marked down, the one that went
 * down first is tried anyway (so a lone replica is retried at once when it comes back).
 */
export class UpstreamPool {
  readonly replicas: Replica[];
  private cursor = 0;
  private readonly failCooldownMs: number;
  private readonly now: () => number;

  constructor(
    readonly service: string,
    urls: string[],
    opts: UpstreamPoolOptions = {},
  ) {
    this.failCooldownMs = opts.failCooldownMs ?? 5000;
    this.now = opts.now ?? Date.now;
    this.replicas = urls.map((u) => {
      const url = new URL(u.endsWith('/') ? u.slice(0, -1) : u);
      const Agent = url.protocol === 'https:' ? https.Agent : http.Agent;
      return {
        url,
        client: new Pool(url.origin, {
          connections: opts.maxSockets ?? 256,
          pipelining: 1,
          connect: { timeout: opts.connectTimeoutMs ?? 2000 },
          headersTimeout: opts.responseTimeoutMs ?? 30_000,
          bodyTimeout: opts.responseTimeoutMs ?? 30_000,
        }),
        agent: new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256, maxFreeSockets: 64, scheduling: 'lifo' }),
        downUntil: 0,
        failures: 0,
      };
    });
  }

  /** The next replica to use, skipping `exclude` and replicas marked down; undefined when there is none. */
  pick(exclude: ReadonlySet<Replica> = new Set()): Replica | undefined {
    const candidates = this.replicas.filter((r) => !exclude.has(r));
    if (!candidates.length) return undefined;
    const now = this.now();
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(this.cursor + i) % this.replicas.length];
      if (exclude.has(r) || r.downUntil > now) continue;
      this.cursor = (this.replicas.indexOf(r) + 1) % this.replicas.length;
      return r;
    }
    return candidates.reduce((a, b) => (a.downUntil <= b.downUntil ? a : b));
  }

  markDown(r: Replica): void {
    r.failures++;
    r.downUntil = this.now() + this.failCooldownMs;
  }

  markUp(r: Replica): void {
    r.failures = 0;
    r.downUntil = 0;
  }

  close(): void {
    for (const r of this.replicas) {
      r.agent.destroy();
      void r.client.destroy();
    }
  }
}
