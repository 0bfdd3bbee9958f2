// Issue 17.1: X-Forwarded-For decides the client (rate-limit bucket) only when the peer is a configured proxy,
// on both of the gateway's paths: the front door (proxied REST paths, bare node:http) and express (everything
// else, e.g. the OpenAPI document).
import request from 'supertest';
import { createGateway, type Gateway } from '../src/app';
import { silentLogger, startUpstream, testConfig, type Upstream } from './helpers';

let upstream: Upstream;
const gateways: Gateway[] = [];
const make = async (env: Record<string, string>) => {
  const gw = await createGateway({
    config: testConfig({ REVISIONS_URLS: upstream.url, RATE_LIMITER_ENABLED: 'true', RATE_LIMITER_POINTS: '2', RATE_LIMITER_DURATION: '10s', ...env }),
    logger: silentLogger(),
  });
  gateways.push(gw);
  return gw;
};
let n = 0;
/** A fresh public address per call: a client rotating X-Forwarded-For. */
const spoofed = () => `198.51.100.${++n % 250}, 203.0.113.${n % 250}`;

beforeAll(async () => {
  upstream = await startUpstream('revisions', (app) => {
    app.get('/revisions', (req, res) => res.json({ data: req.headers['x-forwarded-for'] }));
  });
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await upstream.close();
});

const PATHS = [
  ['front door', '/revisions'],
  ['express', '/server/specs/oas'],
] as const;

describe.each(PATHS)('TRUST_PROXY through the %s (%s)', (_name, path) => {
  it('default (nobody trusted): a rotating X-Forwarded-For from the peer is ignored, the socket address is the bucket', async () => {
    const gw = await make({});
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await request(gw.listener).get(path).set('X-Forwarded-For', spoofed())).status);
    expect(codes).toEqual([200, 200, 429, 429]);
  });

  it('an untrusted peer (TRUST_PROXY names another proxy) is not believed either', async () => {
    const gw = await make({ TRUST_PROXY: '10.0.0.7, 192.168.0.0/16' });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await request(gw.listener).get(path).set('X-Forwarded-For', spoofed())).status);
    expect(codes).toEqual([200, 200, 429]);
  });

  it('a configured proxy (by address) is believed: each forwarded client has its own bucket', async () => {
    const gw = await make({ TRUST_PROXY: '127.0.0.1,::1,::ffff:127.0.0.1' });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await request(gw.listener).get(path).set('X-Forwarded-For', spoofed())).status);
    expect(codes).toEqual([200, 200, 200, 200]);
    // the same forwarded client is counted: its third request is refused
    const same = [];
    for (let i = 0; i < 3; i++) same.push((await request(gw.listener).get(path).set('X-Forwarded-For', '198.51.100.77')).status);
    expect(same).toEqual([200, 200, 429]);
  });

  it('a hop count: one proxy in front, the client is the address it appended (the rightmost)', async () => {
    const gw = await make({ TRUST_PROXY: '1' });
    const codes = [];
    // the client spoofs the left part; the proxy appends the real client on the right
    for (let i = 0; i < 3; i++) codes.push((await request(gw.listener).get(path).set('X-Forwarded-For', `${spoofed()}, 198.51.100.200`)).status);
    expect(codes).toEqual([200, 200, 429]);
  });
});

it('the front door forwards only the socket address upstream when the peer is not trusted', async () => {
  const gw = await make({ RATE_LIMITER_ENABLED: 'false' });
  const r = await request(gw.listener).get('/revisions').set('X-Forwarded-For', '203.0.113.9');
  expect(r.body.data).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
});
