import type { IncomingMessage } from 'node:http';
import express from 'express';
import type { TrustProxy } from '@vellum/config';
import { clientIp, clientProtocol, compileTrust, memoisePeerTrust, type TrustFn } from './client-address';

/** express's own compiled trust function and its req.ip / req.protocol, for the same request. */
function expressView(trustSetting: unknown, remoteAddress: string, headers: Record<string, string>) {
  const app = express();
  app.set('trust proxy', trustSetting);
  const trust = app.get('trust proxy fn') as TrustFn;
  const req = Object.create(app.request) as express.Request;
  Object.assign(req, { app, headers, socket: { remoteAddress }, connection: { remoteAddress } });
  return { trust, ip: req.ip, protocol: req.protocol, raw: { headers, socket: { remoteAddress } } as unknown as IncomingMessage };
}

describe('client address and protocol, as express computes them', () => {
  const cases: [string, unknown, string, Record<string, string>][] = [
    ['no proxy header', 'loopback', '127.0.0.1', {}],
    ['trusted peer, one hop', 'loopback', '127.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }],
    ['trusted chain stops at the first untrusted hop', 'loopback,uniquelocal', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.2' }],
    ['all hops trusted: the leftmost', 'loopback,uniquelocal', '127.0.0.1', { 'x-forwarded-for': '10.0.0.7, 10.0.0.2' }],
    ['untrusted peer: headers ignored', 'loopback', '198.51.100.7', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }],
    ['trust false', false, '127.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }],
    ['trust true', true, '198.51.100.7', { 'x-forwarded-for': '203.0.113.9 , 10.0.0.1', 'x-forwarded-proto': 'https, http' }],
    ['hop count 1', 1, '198.51.100.7', { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' }],
    ['empty entries', 'loopback', '127.0.0.1', { 'x-forwarded-for': ' , 203.0.113.9,, ' }],
  ];
  it.each(cases)('%s', (_name, setting, peer, headers) => {
    const e = expressView(setting, peer, headers);
    expect(clientIp(e.raw, e.trust)).toBe(e.ip);
    expect(clientIp(e.raw, memoisePeerTrust(e.trust))).toBe(e.ip);
    // ours (what the apps give express as `trust proxy`) decides as express's own compiled setting
    const ours = compileTrust((typeof setting === 'string' ? setting.split(',') : setting) as TrustProxy);
    expect(clientIp(e.raw, ours)).toBe(e.ip);
    expect(clientProtocol(e.raw, e.trust)).toBe(e.protocol);
  });

  it('is not vacuous: the chain case finds the first untrusted hop', () => {
    const e = expressView('loopback,uniquelocal', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.2' });
    expect([e.ip, clientIp(e.raw, e.trust)]).toEqual(['203.0.113.9', '203.0.113.9']);
  });

  it('memoises each decision per (hop, address) for the first three hops; further hops are always asked', () => {
    const asked: [string, number][] = [];
    const trust = memoisePeerTrust((a, i) => (asked.push([a, i]), a === '127.0.0.1' && i < 2));
    expect([trust('127.0.0.1', 0), trust('127.0.0.1', 0), trust('10.0.0.1', 1), trust('10.0.0.1', 1)]).toEqual([true, true, false, false]);
    expect([trust('127.0.0.1', 1), trust('127.0.0.1', 2), trust('127.0.0.1', 2), trust('127.0.0.1', 3), trust('127.0.0.1', 3)]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(asked).toEqual([
      ['127.0.0.1', 0],
      ['10.0.0.1', 1],
      ['127.0.0.1', 1],
      ['127.0.0.1', 2],
      ['127.0.0.1', 3],
      ['127.0.0.1', 3],
    ]);
  });

  it("gives express's answer for a hop-count trust (`trust proxy` = 1) through the memo", () => {
    const e = expressView(1, '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.9' });
    const trust = memoisePeerTrust(e.trust);
    expect([clientIp(e.raw, trust), clientIp(e.raw, trust)]).toEqual([e.ip, e.ip]);
    expect(e.ip).toBe('203.0.113.9');
  });
});
