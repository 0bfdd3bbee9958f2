import { Pool } from 'pg';
import { matchFastRoute } from '@vellum/http';
import { createTokenVerifier } from '@vellum/tokens';
import { AccessRules, createApp, createPrisma } from '../src';
import { testKeys } from './helpers';

// Nothing here connects: the app is only built, and its routes looked up.
const url = 'postgres://nobody@127.0.0.1:1/none';

describe('the items routes on the fast lane', () => {
  it('answers every /items route with node objects as they are (no express prototype swap, no router walk)', async () => {
    const pool = new Pool({ connectionString: url });
    const prisma = createPrisma(url, 1);
    const { app, routes } = createApp({ pool, prisma, rules: new AccessRules(), verifier: createTokenVerifier(testKeys().keySource), logger: console });
    const items = routes.filter((r) => r.path.startsWith('/items'));
    expect(items).toHaveLength(8);
    for (const r of items) {
      const path = r.path.replace(':collection', 'articles').replace(':id', '12');
      const found = matchFastRoute(app, r.method.toUpperCase(), path);
      expect([r.method, found?.fast.route.path, found?.params]).toEqual([
        r.method,
        r.path,
        { collection: 'articles', ...(r.path.endsWith(':id') ? { id: '12' } : {}) },
      ]);
    }
    await Promise.all([pool.end(), prisma.$disconnect()]);
  });
});
