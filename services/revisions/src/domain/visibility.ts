import { allowedCollections, allowedFields } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';
import type { AccessRules } from '../events/access-rules.store';

/** What the caller may see: everything, or these collections with these fields of each. */
export type Visibility = { all: true } | { all: false; fields: Record<string, '*' | string[]> };

export const ACTIVITY_COLLECTION = 'vellum_activity';

export function visibilityOf(acc: Accountability | undefined, rules: AccessRules): Visibility {
  if (acc?.admin) return { all: true };
  const access = rules.get(acc?.role ?? null);
  if (access?.admin) return { all: true };
  const collections = allowedCollections(access, 'read');
  const fields: Record<string, '*' | string[]> = {};
  if (collections !== '*')
    for (const c of collections) {
      const f = allowedFields(access, c, 'read');
      if (f !== null) fields[c] = f;
    }
  return { all: false, fields };
}

export const visibleCollections = (v: Visibility): '*' | string[] => (v.all ? '*' : Object.keys(v.fields));
