/* eslint-disable no-restricted-properties -- a benchmark script reads its own knobs from the environment */
// Verify cost of an access token: jose (this library's verifier) vs jsonwebtoken (what it replaced: decode, kid
// lookup in a Map of KeyObjects, jwt.verify), and a hit of the verified-token cache. µs per verify, best of
// BENCH_ROUNDS rounds of BENCH_N tokens each (one process, interleaved): wall time, the main thread's CPU (the event
// loop's cost) and the whole process's CPU (jose's WebCrypto verify runs on libuv's thread pool).
// Run: node --import tsx libs/tokens/bench/verify.bench.ts
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import os from 'node:os';
import jwt from 'jsonwebtoken';
import { cachedVerifier, createTokenVerifier, staticKeySource, type JwkSet } from '../src';

const N = Number(process.env.BENCH_N ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwks: JwkSet = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' }] };
const tokens = Array.from({ length: N }, (_, i) =>
  jwt.sign({ id: `u${i}`, role: 'r', app_access: true, admin_access: false }, privateKey, {
    algorithm: 'ES256',
    keyid: 'k1',
    issuer: 'vellum',
    expiresIn: 3600,
  }),
);

// Before: libs/tokens' verifier on jsonwebtoken (same checks, same error mapping).
const keys = new Map([['k1', createPublicKey({ key: jwks.keys[0], format: 'jwk' })]]);
const before = async (t: string) => {
  const d = jwt.decode(t, { complete: true });
  const key = keys.get(d!.header.kid!)!;
  return jwt.verify(t, key, { algorithms: ['ES256'], issuer: 'vellum' });
};
const jose = createTokenVerifier(staticKeySource(jwks));
const cached = cachedVerifier(jose, { max: N * 2 });

async function timed(verify: (t: string) => Promise<unknown>) {
  const cpu = process.threadCpuUsage();
  const all = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (const t of tokens) await verify(t);
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / N;
  const c = process.threadCpuUsage(cpu);
  const a = process.cpuUsage(all);
  return { wall, cpu: (c.user + c.system) / N, total: (a.user + a.system) / N };
}

async function main() {
  for (const t of tokens) await cached.verify(t); // warm the cache (and jose's key import)
  const cases: [string, (t: string) => Promise<unknown>][] = [
    ['jsonwebtoken (before)', before],
    ['jose (now)', (t) => jose.verify(t)],
    ['cache hit (now)', (t) => cached.verify(t)],
  ];
  const best = new Map(cases.map(([name]) => [name, { wall: Infinity, cpu: Infinity, total: Infinity }]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of r % 2 ? [...cases].reverse() : cases) {
      const m = await timed(fn);
      const b = best.get(name)!;
      best.set(name, { wall: Math.min(b.wall, m.wall), cpu: Math.min(b.cpu, m.cpu), total: Math.min(b.total, m.total) });
    }
  }
  console.log(
    `ES256 verify, best of ${ROUNDS} rounds × ${N} tokens; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| verifier | µs per verify (wall) | main-thread CPU µs | process CPU µs (all threads) |\n|---|---|---|---|');
  for (const [name, b] of best) console.log(`| ${name} | ${b.wall.toFixed(1)} | ${b.cpu.toFixed(1)} | ${b.total.toFixed(1)} |`);
  const j = best.get('jose (now)')!;
  const w = best.get('jsonwebtoken (before)')!;
  console.log(
    `jose ÷ jsonwebtoken: wall ${(j.wall / w.wall).toFixed(2)}, main-thread CPU ${(j.cpu / w.cpu).toFixed(2)}, process CPU ${(j.total / w.total).toFixed(2)}`,
  );
}

void main();
