import { ACCESS_BUCKET, type RoleAccess } from '@vellum/contracts';
import { AccessRuleMap, watchAccessRules } from './access-rules';
import { fakeKeyValueSource } from './key-value-source.fake';

const access = (role: string | null, collection = 'posts'): RoleAccess => ({
  role,
  admin: false,
  app: true,
  permissions: { [collection]: { read: ['*'] } },
  updated_at: new Date(0).toISOString(),
});

describe('access rules', () => {
  it('watches the bucket into the map; null role = public; a malformed entry is ignored and logged, the last copy kept', async () => {
    const kv = fakeKeyValueSource();
    kv.put(ACCESS_BUCKET, 'public', access(null));
    const warnings: object[] = [];
    const { rules, stop } = await watchAccessRules(kv.source, { logger: { warn: (o) => warnings.push(o) } });
    expect(rules.get(null)?.permissions).toHaveProperty('posts');
    kv.put(ACCESS_BUCKET, 'r1', access('r1'));
    expect(rules.get('r1')?.role).toBe('r1');
    kv.put(ACCESS_BUCKET, 'r1', { role: 'r1', admin: 'yes' });
    expect(rules.get('r1')?.permissions).toHaveProperty('posts');
    expect(warnings).toEqual([{ key: 'r1' }]);
    kv.put(ACCESS_BUCKET, 'r1', undefined);
    expect(rules.get('r1')).toBeUndefined();
    await stop();
    kv.put(ACCESS_BUCKET, 'r2', access('r2'));
    expect(rules.get('r2')).toBeUndefined();
  });

  it('keeps a given map (a service’s subclass) in step', async () => {
    class Counting extends AccessRuleMap {
      applied = 0;
      override apply(key: string, value: unknown) {
        this.applied++;
        return super.apply(key, value);
      }
    }
    const kv = fakeKeyValueSource();
    const { rules } = await watchAccessRules(kv.source, { into: new Counting() });
    kv.put(ACCESS_BUCKET, 'r1', access('r1', 'docs'));
    expect(rules.applied).toBe(1);
    expect(rules.get('r1')?.permissions).toHaveProperty('docs');
  });

  it('a fixed map answers the same way', () => {
    const rules = AccessRuleMap.of({ public: access(null), r1: access('r1') });
    expect(rules.get(null)?.role).toBeNull();
    expect(rules.get('r1')?.role).toBe('r1');
    expect(rules.size).toBe(2);
  });
});
