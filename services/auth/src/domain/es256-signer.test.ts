import { generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { es256Sign } from './es256-signer';

describe('es256Sign', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const key = { privateKey, kid: 'k1' };
  const payload = { id: 'u1', role: null, app_access: true, admin_access: false, iat: 1_800_000_000, exp: 1_800_000_900, sid: 'f1', iss: 'vellum' };

  it("gives jsonwebtoken's header and payload bytes, and a signature it verifies", () => {
    const ours = es256Sign(key, payload);
    const theirs = jwt.sign({ ...payload, iss: undefined }, privateKey, { algorithm: 'ES256', keyid: 'k1', issuer: 'vellum' });
    const [h, p, sig] = ours.split('.');
    expect(`${h}.${p}`).toBe(theirs.split('.').slice(0, 2).join('.'));
    expect(Buffer.from(sig!, 'base64url')).toHaveLength(64); // r ‖ s, not DER
    expect(jwt.verify(ours, publicKey, { algorithms: ['ES256'], issuer: 'vellum', clockTimestamp: 1_800_000_100 })).toEqual(payload);
  });

  it('refuses verification under another key; each key keeps its own kid', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => jwt.verify(es256Sign(key, payload), other.publicKey, { algorithms: ['ES256'], ignoreExpiration: true })).toThrow();
    const t = es256Sign({ privateKey: other.privateKey, kid: 'k2' }, payload);
    expect(jwt.decode(t, { complete: true })?.header).toEqual({ alg: 'ES256', typ: 'JWT', kid: 'k2' });
  });
});
