import { api, ok, type Role } from '../api/client';
import { useAsync } from '../ui/use-async';

/** Every role (admin pages: selects and names), reloadable. */
export function useRoles() {
  return useAsync(async () => (await ok(api.GET('/roles', { params: { query: { limit: -1, sort: 'name' } } }))).data as Role[], []);
}

export const roleOptions = (roles: Role[] | undefined, none?: string) => [
  ...(none !== undefined ? [{ value: '', label: none }] : []),
  ...(roles ?? []).map((r) => ({ value: String(r.id), label: String(r.name) })),
];
