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
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';

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

function stripHopByHop(headers: IncomingHttpHeaders, extraDrop: string[] = []): OutgoingHttpHeaders {
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
 * What the upstream receives: the caller's headers (credentials included, untouched) minus hop-by-hop ones, plus
 * X-Request-Id, X-Forwarded-For/Proto/Host (the caller's own X-Forwarded-* kept only when the peer is a trusted
 * proxy) and a traceparent, from what the caller's request worked out (ForwardContext).
 */
export function forwardedRequestHeaders(req: IncomingMessage, ctx: ForwardContext): OutgoingHttpHeaders {
  const headers = stripHopByHop(req.headers, ['host', 'expect']);
  const peer = req.socket.remoteAddress ?? '';
  const priorFor = ctx.peerTrusted ? req.headers['x-forwarded-for'] : undefined;
  headers['x-forwarded-for'] = priorFor ? `${priorFor}, ${peer}` : peer;
  headers['x-forwarded-proto'] = ctx.protocol;
  const host = ctx.peerTrusted && req.headers['x-forwarded-host'] ? req.headers['x-forwarded-host'] : req.headers.host;
  if (host) headers['x-forwarded-host'] = host;
  else delete headers['x-forwarded-host'];
  headers['x-request-id'] = ctx.requestId;
  headers.traceparent = ctx.traceparent ?? nextTraceparent(req.headers.traceparent);
  return headers;
}

/** Request headers the proxy sets itself (the caller's copies are replaced), besides hop-by-hop ones. */
const REPLACED_UP = new Set(['host', 'expect', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-request-id', 'traceparent']);

function connectionListed(value: string | string[] | undefined): string[] | undefined {
  if (!value) return undefined;
  const listed = String(value)
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s && s !== 'close' && s !== 'keep-alive');
  return listed.length ? listed : undefined;
}

export interface ForwardContext {
  requestId: string;
  /** The peer is a trusted proxy (TRUST_PROXY): its X-Forwarded-* are kept and extended. */
  peerTrusted: boolean;
  /** The caller's protocol (express `req.protocol`). */
  protocol: string;
  /** The gateway's exported span (tracing on): the upstream's parent. Otherwise a fresh child of the caller's. */
  traceparent?: string;
}

/**
 * The same upstream headers as `upstreamRequestHeaders`, built straight from the raw header list as a flat
 * name/value array (node:http sends it as is; repeated fields stay repeated), without `host`: the caller adds the
 * upstream's own Host first.
 */
export function upstreamRawHeaders(req: IncomingMessage, ctx: ForwardContext, out: string[]): string[] {
  const raw = req.rawHeaders;
  const listed = connectionListed(req.headers.connection);
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(lower) || REPLACED_UP.has(lower) || (listed && listed.includes(lower))) continue;
    out.push(raw[i], raw[i + 1]);
  }
  const peer = req.socket.remoteAddress ?? '';
  const h = req.headers;
  const priorFor = ctx.peerTrusted ? h['x-forwarded-for'] : undefined;
  out.push('x-forwarded-for', priorFor ? `${priorFor}, ${peer}` : peer);
  out.push('x-forwarded-proto', ctx.protocol);
  const fwdHost = ctx.peerTrusted && h['x-forwarded-host'] ? h['x-forwarded-host'] : h.host;
  if (fwdHost) out.push('x-forwarded-host', String(fwdHost));
  out.push('x-request-id', ctx.requestId);
  out.push('traceparent', ctx.traceparent ?? nextTraceparent(h.traceparent));
  return out;
}

/**
 * The response headers, from the upstream's parsed header record (lower-case names, repeated fields as arrays, as
 * undici gives it): the gateway's `Vary` first (both may add to it: the gateway's, then the upstream's, as a
 * service's `res.vary` in the embedded topology gives it), the upstream's (minus hop-by-hop and its X-Request-Id),
 * then the rest of the gateway's own (`gateway`, flat name/value list) unless the upstream set the same header — a
 * service's own value wins.
 */
export function responseHeaderList(headers: Record<string, string | string[] | undefined>, gateway: readonly string[]): string[] {
  const listed = connectionListed(headers.connection);
  const out: string[] = [];
  for (let i = 0; i < gateway.length; i += 2) if (gateway[i]!.toLowerCase() === 'vary') out.push(gateway[i]!, gateway[i + 1]!);
  for (const name in headers) {
    const v = headers[name];
    if (v === undefined || HOP_BY_HOP.has(name) || name === 'x-request-id' || (listed && listed.includes(name))) continue;
    if (typeof v === 'string') out.push(name, v);
    else for (const one of v) out.push(name, one);
  }
  for (let i = 0; i < gateway.length; i += 2) {
    const name = gateway[i];
    const lower = name.toLowerCase();
    if (lower === 'vary' || (lower !== 'x-request-id' && headers[lower] !== undefined)) continue;
    out.push(name, gateway[i + 1]);
  }
  return out;
}
