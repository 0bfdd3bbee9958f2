import { randomFillSync } from 'node:crypto';

/** Random hex ids from a pooled buffer (one syscall per 512 ids, not one per id). */
const pool = Buffer.alloc(4096);
let offset = pool.length;
function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Request } from 'express';

/** Headers that describe one connection, never forwarded (RFC 9110 §7.6.1), plus `host` and `expect`. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export function stripHopByHop(headers: IncomingHttpHeaders, extraDrop: string[] = []): OutgoingHttpHeaders {
  const connectionListed = String(headers.connection ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.has(k) || connectionListed.includes(k) || extraDrop.includes(k)) continue;
    out[k] = v;
  }
  return out;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * W3C Trace Context: keep the caller's trace id and flags and make the gateway's own span the parent of the
 * upstream call; start a new sampled trace when the caller sent none (or an invalid one).
 */
export function nextTraceparent(incoming: string | string[] | undefined): string {
  const v = Array.isArray(incoming) ? incoming[0] : incoming;
  const m = v ? TRACEPARENT.exec(v.trim().toLowerCase()) : null;
  const span = randomHex(8);
  if (m && m[1] !== 'ff' && !/^0+$/.test(m[2]) && !/^0+$/.test(m[3])) return `00-${m[2]}-${span}-${m[4]}`;
  return `00-${randomHex(16)}-${span}-01`;
}

/**
 * What the upstream receives: the caller's headers (credentials included, untouched) minus hop-by-hop ones,
 * plus X-Request-Id, X-Forwarded-For/Proto/Host (the caller's own X-Forwarded-* are kept only when it is a
 * trusted proxy, per `trust proxy`) and a traceparent.
 */
export function upstreamRequestHeaders(req: Request): OutgoingHttpHeaders {
  const headers = stripHopByHop(req.headers, ['host', 'expect']);
  const peer = req.socket.remoteAddress ?? '';
  const trust = req.app.get('trust proxy fn') as ((addr: string, i: number) => boolean) | undefined;
  const peerTrusted = trust ? trust(peer, 0) : false;
  const priorFor = peerTrusted ? req.headers['x-forwarded-for'] : undefined;
  headers['x-forwarded-for'] = priorFor ? `${priorFor}, ${peer}` : peer;
  headers['x-forwarded-proto'] = req.protocol;
  const host = peerTrusted && req.headers['x-forwarded-host'] ? req.headers['x-forwarded-host'] : req.headers.host;
  if (host) headers['x-forwarded-host'] = host;
  else delete headers['x-forwarded-host'];
  headers['x-request-id'] = req.requestId ?? (req.headers['x-request-id'] as string);
  headers.traceparent = nextTraceparent(req.headers.traceparent);
  return headers;
}
