import { allowedFields, type Action, type RoleAccess } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';
import { AccessRuleMap } from '@vellum/tokens';

const ADMIN: RoleAccess = { role: null, admin: true, app: true, permissions: {}, updated_at: new Date(0).toISOString() };

/**
 * The access-rules map (ACCESS_BUCKET, kept in step by @vellum/tokens' `watchAccessRules`: it keeps serving the
 * last copy when messaging or auth is down), with the questions the items service asks of it.
 */
export class AccessRules extends AccessRuleMap {
  /** The rules that apply to a caller: admins everything; a caller without a role gets the public role's. */
  forCaller(a: Accountability | undefined): RoleAccess | undefined {
    if (a?.admin) return ADMIN;
    return this.get(a?.role ?? null);
  }

  /** Fields of `collection` the caller may use for `action`: null = not allowed, '*' = all. */
  fields(a: Accountability | undefined, collection: string, action: Action): '*' | string[] | null {
    return allowedFields(this.forCaller(a), collection, action);
  }

  /** Collections on which the caller may do anything at all ('*' for admins). */
  visibleCollections(a: Accountability | undefined): '*' | Set<string> {
    const access = this.forCaller(a);
    if (access?.admin) return '*';
    return new Set(
      Object.entries(access?.permissions ?? {})
        .filter(([, p]) => Object.keys(p).length > 0)
        .map(([c]) => c),
    );
  }
}

export const permits = (allowed: '*' | string[], field: string) => allowed === '*' || allowed.includes(field);
