import { generateKeyPairSync, createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import express from 'express';
import request from 'supertest';
import { createServiceApp, finishServiceApp } from '@vellum/http';
import { AppError } from '@vellum/errors';
import { createTokenVerifier, staticKeySource, authenticate, type JwkSet } from './index';

const pair = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });
const k1 = pair();
const other = pair();
const jwks: JwkSet = { keys: [{ ...k1.publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' }] };
const claims = { id: 'u1', role: 'r1', app_access: true, admin_access: false };
const sign = (payload: object = claims, opts: jwt.SignOptions = {}, key = k1.privateKey) =>
  jwt.sign(payload, key, { algorithm: 'ES256', keyid: 'k1', issuer: 'vellum', expiresIn: 60, ...opts });

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'OK';
  } catch (e) {
    return (e as AppError).code;
  }
};

describe('token verifier', () => {
  const v = createTokenVerifier(staticKeySource(jwks));

  it('accepts a valid token', async () => {
    await expect(v.verify(sign())).resolves.toMatchObject({ id: 'u1', role: 'r1', iss: 'vellum' });
  });
  it('maps failures to the contract codes', async () => {
    expect(await code(v.verify(sign(claims, { expiresIn: -10 })))).toBe('TOKEN_EXPIRED');
    expect(await code(v.verify(sign(claims, {}, other.privateKey)))).toBe('INVALID_TOKEN');
    expect(await code(v.verify(sign(claims, { issuer: 'evil' })))).toBe('INVALID_TOKEN');
    expect(await code(v.verify(sign(claims, { keyid: 'nope' })))).toBe('INVALID_TOKEN');
    expect(await code(v.verify(sign({ id: 'u1' })))).toBe('INVALID_TOKEN');
    const hs = jwt.sign(claims, createSecretKey(Buffer.from('x'.repeat(32))), { algorithm: 'HS256', keyid: 'k1', issuer: 'vellum' });
    expect(await code(v.verify(hs))).toBe('INVALID_TOKEN');
    expect(await code(v.verify('static-token-123'))).toBe('INVALID_CREDENTIALS');
    // three base64url parts that do not decode to a JWT header and payload
    expect(await code(v.verify('abc.def.ghi'))).toBe('INVALID_CREDENTIALS');
    const [h, , sig] = sign().split('.');
    expect(await code(v.verify(`${h}.${Buffer.from('"not an object"').toString('base64url')}.${sig}`))).toBe('INVALID_CREDENTIALS');
    // no kid, or a key that is not ES256
    expect(await code(v.verify(jwt.sign(claims, k1.privateKey, { algorithm: 'ES256', issuer: 'vellum' })))).toBe('INVALID_TOKEN');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect(await code(v.verify(jwt.sign(claims, rsa, { algorithm: 'RS256', keyid: 'k1', issuer: 'vellum' })))).toBe('INVALID_TOKEN');
    // a tampered payload
    const [th, , ts] = sign().split('.');
    expect(await code(v.verify(`${th}.${Buffer.from(JSON.stringify({ ...claims, admin_access: true, iss: 'vellum' })).toString('base64url')}.${ts}`))).toBe(
      'INVALID_TOKEN',
    );
  });
  it('expires exactly at exp (valid while now < exp, no leeway)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const at = (exp: number) => jwt.sign({ ...claims, exp }, k1.privateKey, { algorithm: 'ES256', keyid: 'k1', issuer: 'vellum' });
    expect(await code(v.verify(at(now)))).toBe('TOKEN_EXPIRED');
    expect(await code(v.verify(at(now + 5)))).toBe('OK');
  });
});

describe('authenticate middleware', () => {
  const revoked = new Set(['s-dead']);
  const app = createServiceApp();
  app.use(authenticate({ verifier: createTokenVerifier(staticKeySource(jwks)), isSessionRevoked: (s) => revoked.has(s) }));
  app.get('/who', (req: express.Request, res: express.Response) => {
    res.json({ data: req.accountability });
  });
  finishServiceApp(app, { error: () => {}, warn: () => {} });

  it('is the public role without a token', async () => {
    const r = await request(app).get('/who');
    expect(r.body.data).toMatchObject({ user: null, role: null, admin: false });
  });
  it('reads header, query and session cookie', async () => {
    const t = sign();
    expect((await request(app).get('/who').set('Authorization', `Bearer ${t}`)).body.data.user).toBe('u1');
    expect((await request(app).get(`/who?access_token=${t}`)).body.data.user).toBe('u1');
    const s = sign({ ...claims, session: 's-live' });
    expect((await request(app).get('/who').set('Cookie', `vellum_session_token=${s}`)).body.data.session).toBe('s-live');
  });
  it('refuses query + header together', async () => {
    const t = sign();
    const r = await request(app).get(`/who?access_token=${t}`).set('Authorization', `Bearer ${t}`);
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe('INVALID_PAYLOAD');
  });
  it('rejects a revoked session at once and bad tokens early', async () => {
    const s = sign({ ...claims, session: 's-dead' });
    expect((await request(app).get('/who').set('Cookie', `vellum_session_token=${s}`)).status).toBe(401);
    expect((await request(app).get('/who').set('Authorization', 'Bearer garbage')).body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    expect(
      (
        await request(app)
          .get('/who')
          .set('Authorization', `Bearer ${sign(claims, {}, other.privateKey)}`)
      ).status,
    ).toBe(403);
  });
});
