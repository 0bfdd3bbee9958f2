import { api, ok, type Role } from '../api/client';
import { useAsync } from '../ui/use-async';

/** Every role (admin pages: selects and names), reloadable; `admin` false: none asked (a 403 for anyone else). */
export function useRoles(admin = true) {
  return useAsync(
    async () => (admin ? ((await ok(api.GET('/roles', { params: { query: { limit: -1, sort: 'name' } } }))).data as Role[]) : undefined),
    [admin],
  );
}

export const roleOptions = (roles: Role[] | undefined, none?: string) => [
  ...(none !== undefined ? [{ value: '', label: none }] : []),
  ...(roles ?? []).map((r) => ({ value: String(r.id), label: String(r.name) })),
];
