// ES256 tokens the bench signs itself (kid `bench`, iss `vellum`) for a service started by bench/serve-revisions.ts,
// and the scenarios of bench/compare-checkouts.ts by name.
import { generateKeyPairSync, sign } from 'node:crypto';

export function benchTokens() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256' }] };
  const token = (claims: object): string => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const data = `${b64({ alg: 'ES256', typ: 'JWT', kid: 'bench' })}.${b64({ iss: 'vellum', iat: now, exp: now + 7200, app_access: true, ...claims })}`;
    return `${data}.${sign('sha256', Buffer.from(data), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  return { jwks, admin: token({ id: 'admin', role: 'r-admin', admin_access: true }), editor: token({ id: 'editor', role: 'r-editor', admin_access: false }) };
}

export interface BenchScenario {
  name: string;
  path: string;
  token: string;
  method?: string;
  body?: string;
}

export function scenarioOf(name: string, t: { admin: string; editor: string }): BenchScenario {
  const search = JSON.stringify({ query: { filter: { _or: [{ collection: { _eq: 'c3' } }, { collection: { _eq: 'c4' } }] }, sort: ['-id'], limit: 25 } });
  const all: BenchScenario[] = [
    { name: 'admin', path: '/revisions?limit=25&sort=-id', token: t.admin },
    { name: 'restricted', path: '/revisions?limit=25&sort=-id', token: t.editor },
    { name: 'filter_count', path: '/revisions?filter[collection][_eq]=c7&meta=filter_count&limit=25', token: t.admin },
    { name: 'SEARCH', path: '/revisions', token: t.editor, method: 'SEARCH', body: search },
  ];
  const s = all.find((x) => x.name === name);
  if (!s) throw new Error(`no scenario ${name}: ${all.map((x) => x.name).join(', ')}`);
  return s;
}
