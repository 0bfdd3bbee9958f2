import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { createGateway, type Gateway } from '../src/app';
import { ADMIN_CSP } from '../src/admin/admin-app';
import { silentLogger, testConfig } from './helpers';

// The admin app as the gateway serves it at /admin: a built dist folder (index.html + hashed assets).
const dist = mkdtempSync(path.join(tmpdir(), 'vellum-admin-dist-'));
mkdirSync(path.join(dist, 'assets'));
writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Vellum admin</title><script type="module" src="/admin/assets/index-abc123.js"></script>');
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("app")');

const gateways: Gateway[] = [];
const make = async (dir: string) => {
  const gw = await createGateway({ config: testConfig({ ADMIN_APP_DIR: dir }), logger: silentLogger() });
  gateways.push(gw);
  return gw.listener;
};
afterAll(async () => {
  for (const g of gateways) await g.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the admin app at /admin', () => {
  it('serves index.html uncached with the strict CSP, and hashed assets cached immutable', async () => {
    const app = await make(dist);
    const index = await request(app).get('/admin');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-security-policy']).toBe(ADMIN_CSP);
    expect(ADMIN_CSP).toMatch(/script-src 'self'(;|$)/);
    expect(ADMIN_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(index.text).toContain('/admin/assets/index-abc123.js');

    const asset = await request(app).get('/admin/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBe(ADMIN_CSP);
  });

  it('sends text assets brotli- or gzip-compressed when the client accepts it (issue 40.9)', async () => {
    const app = await make(dist);
    const big = `console.log(${JSON.stringify('vellum '.repeat(2000))});`;
    writeFileSync(path.join(dist, 'assets', 'big-def456.js'), big);
    // node:http, not supertest: supertest inflates the body before the test could see it
    const server = http.createServer(app).listen(0);
    await new Promise((r) => server.once('listening', r));
    const raw = (enc: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const { port } = server.address() as AddressInfo;
        http
          .get({ port, path: '/admin/assets/big-def456.js', headers: { 'accept-encoding': enc } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const br = await raw('gzip, deflate, br');
    expect({ enc: br.headers['content-encoding'], vary: br.headers['vary'], cache: br.headers['cache-control'] }).toEqual({
      enc: 'br',
      vary: expect.stringMatching(/Accept-Encoding/i),
      cache: 'public, max-age=31536000, immutable',
    });
    expect(brotliDecompressSync(br.body).toString()).toBe(big);
    expect(br.body.length).toBeLessThan(big.length / 10);
    const gz = await raw('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(big);
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(big);
    expect((await raw('br;q=0, gzip')).headers['content-encoding']).toBe('gzip');
    server.close();
  });

  it('answers every app route with the shell (SPA fallback), but a missing asset with a 404 envelope', async () => {
    const app = await make(dist);
    for (const p of ['/admin/', '/admin/reset-password?token=abc', '/admin/accept-invite?token=abc', '/admin/users/42']) {
      const r = await request(app).get(p);
      expect({ p, status: r.status, type: r.headers['content-type'] }).toEqual({ p, status: 200, type: expect.stringMatching(/text\/html/) });
      expect(r.headers['cache-control']).toBe('no-cache');
    }
    const missing = await request(app).get('/admin/assets/index-old999.js');
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].extensions.code).toBe('ROUTE_NOT_FOUND');
    // Only GET/HEAD get the shell; other paths keep their 404.
    expect((await request(app).post('/admin/users')).status).toBe(404);
    expect((await request(app).get('/administrator')).status).toBe(404);
  });

  it('says how to build the app when it is not built (503, never a hang)', async () => {
    const app = await make(path.join(dist, 'missing'));
    const r = await request(app).get('/admin/reset-password?token=x');
    expect(r.status).toBe(503);
    expect(r.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(r.body.errors[0].message + JSON.stringify(r.body.errors[0].extensions)).toMatch(/npm run build -w @vellum\/admin/);
  });
});
