import { PUBLIC_ROLE_KEY, allowedFields, roleAccessSchema, type Action, type RoleAccess } from '@vellum/contracts';
import type { Accountability } from '@vellum/http';

const ADMIN: RoleAccess = { role: null, admin: true, app: true, permissions: {}, updated_at: new Date(0).toISOString() };

/**
 * The access-rules map (ACCESS_BUCKET) held in memory: fed by a KV watch, it keeps serving the last copy when
 * messaging or auth is down. Key = role id, or `public` for the public role.
 */
export class AccessRules {
  private readonly byRole = new Map<string, RoleAccess>();

  /** Apply one KV change; an invalid value is ignored (the last good copy stays). Returns false when ignored. */
  apply(key: string, value: unknown): boolean {
    if (value === undefined || value === null) {
      this.byRole.delete(key);
      return true;
    }
    const parsed = roleAccessSchema.safeParse(value);
    if (!parsed.success) return false;
    this.byRole.set(key, parsed.data);
    return true;
  }

  /** The rules that apply to a caller: admins everything; a caller without a role gets the public role's. */
  forCaller(a: Accountability | undefined): RoleAccess | undefined {
    if (a?.admin) return ADMIN;
    return this.byRole.get(a?.role ?? PUBLIC_ROLE_KEY);
  }

  /** Fields of `collection` the caller may use for `action`: null = not allowed, '*' = all. */
  fields(a: Accountability | undefined, collection: string, action: Action): '*' | string[] | null {
    return allowedFields(this.forCaller(a), collection, action);
  }

  /** Collections on which the caller may do anything at all ('*' for admins). */
  visibleCollections(a: Accountability | undefined): '*' | Set<string> {
    const access = this.forCaller(a);
    if (access?.admin) return '*';
    return new Set(Object.entries(access?.permissions ?? {}).filter(([, p]) => Object.keys(p).length > 0).map(([c]) => c));
  }
}

export const permits = (allowed: '*' | string[], field: string) => allowed === '*' || allowed.includes(field);
