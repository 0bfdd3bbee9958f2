import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '@vellum/config';

/** A compiled `trust proxy` (proxy-addr): is the address at hop `i` (0 = the socket peer) trusted? */
export type TrustFn = (addr: string, i: number) => boolean;

/**
 * TRUST_PROXY compiled as express compiles its `trust proxy` setting (true, a hop count, or proxy-addr's subnets
 * and names): given to express as the setting's value (`app.set('trust proxy', fn)`, documented) so that the app,
 * the fast lane and the gateway's front door share the one function.
 */
export function compileTrust(value: TrustProxy): TrustFn {
  if (value === true) return () => true;
  if (value === false) return proxyaddr.compile([]);
  if (typeof value === 'number') return (_addr, i) => i < value;
  return proxyaddr.compile(value);
}

/**
 * The trust decision for an address at a hop, remembered per (hop, address) for the first hops: proxy-addr parses
 * the address on every call, and a service sees few distinct peers and forwarded hops (load balancers, a gateway,
 * clients on keep-alive connections). The decision depends only on the address and the hop (express's compiled
 * `trust proxy`: subnets, or a hop count).
 */
export function memoisePeerTrust(trust: TrustFn, max = 10_000): TrustFn {
  const hops = [new Map<string, boolean>(), new Map<string, boolean>(), new Map<string, boolean>()];
  return (addr, i) => {
    const seen = hops[i];
    if (!seen) return trust(addr, i);
    let v = seen.get(addr);
    if (v === undefined) {
      v = trust(addr, i);
      if (seen.size >= max) seen.clear();
      seen.set(addr, v);
    }
    return v;
  };
}

/**
 * The client address exactly as express computes `req.ip` (proxy-addr): walk from the socket peer through
 * X-Forwarded-For right to left while each hop is trusted; the first untrusted hop (or the last one) is the client.
 */
export function clientIp(req: IncomingMessage, trust: TrustFn): string | undefined {
  const peer = req.socket.remoteAddress;
  const xff = req.headers['x-forwarded-for'];
  if (!xff || peer === undefined || !trust(peer, 0)) return peer;
  const hops = String(xff).split(',');
  let addr = peer;
  let n = 0;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i].trim();
    if (!hop) continue;
    addr = hop;
    if (!trust(hop, ++n)) return hop;
  }
  return addr;
}

/** `req.protocol` as express computes it: the socket's, or the first X-Forwarded-Proto value from a trusted peer. */
export function clientProtocol(req: IncomingMessage, trust: TrustFn): string {
  const proto = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress ?? '', 0)) return proto;
  const header = req.headers['x-forwarded-proto'];
  const v = (Array.isArray(header) ? header[0] : header) || proto;
  const comma = v.indexOf(',');
  return comma !== -1 ? v.substring(0, comma).trim() : v.trim();
}
