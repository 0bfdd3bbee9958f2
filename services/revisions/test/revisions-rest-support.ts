import request from 'supertest';
import { createHarness, signToken, type Harness } from './helpers';
import { NOW, seed, U1, U2 } from './seed';

export const admin = `Bearer ${signToken({ id: 'admin-user', role: 'r-admin', admin_access: true })}`;
export const editor = `Bearer ${signToken({ id: U1, role: 'r-editor' })}`;
export const nobody = `Bearer ${signToken({ id: U2, role: 'r-none' })}`;

export interface SeededRevisions {
  h: Harness;
  /** The events `seed` recorded. */
  events: Awaited<ReturnType<typeof seed>>;
}

/** A revisions service with the shared seed (test/seed.ts), made before the calling file's tests and closed after. */
export function useSeededRevisions(): () => SeededRevisions {
  let seeded: SeededRevisions;
  beforeAll(async () => {
    const h = await createHarness(() => NOW);
    seeded = { h, events: await seed(h) };
  });
  afterAll(() => seeded.h.close());
  return () => seeded;
}

/** GET through the service's app, as `auth` (admin by default; null: no token). */
export const getter =
  (seeded: () => SeededRevisions) =>
  (path: string, auth: string | null = admin) => {
    const r = request(seeded().h.app.listener).get(path);
    return auth ? r.set('Authorization', auth) : r;
  };
export const ids = (r: request.Response) => (r.body.data as { id: number }[]).map((x) => x.id);
