import { api, json, ok } from '../api/client';
import { useMeOrThrow } from '../session/session';
import { useAsync } from '../ui/use-async';

type Person = { id: string; email: string | null; first_name: string | null; last_name: string | null };

/** "Ada Lovelace (ada@example.com)", or the e-mail alone. */
export const personLabel = (u: Person) => {
  const name = [u.first_name, u.last_name].filter(Boolean).join(' ');
  return name ? `${name} (${u.email ?? u.id})` : (u.email ?? u.id);
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Who wrote something, in words: "you (…)", another user's name and e-mail (administrators may read users), or
 * the id when the role may not; "the system" when no user.
 */
export function useWho(userIds: (string | null | undefined)[]) {
  const me = useMeOrThrow();
  const ids = [...new Set(userIds.filter((u): u is string => !!u && u !== me.id))].sort();
  const users = useAsync(async () => {
    if (!me.admin || ids.length === 0) return new Map<string, string>();
    const r = await ok(api.GET('/users', { params: { query: { filter: json({ id: { _in: ids } }), fields: 'id,email,first_name,last_name', limit: -1 } } }));
    return new Map((r.data as Person[]).map((u) => [u.id, personLabel(u)]));
  }, [ids.join(',')]);
  return (u: string | null | undefined) => (!u ? 'the system' : u === me.id ? `you (${me.email})` : (users.value?.get(u) ?? u));
}

/**
 * The users a "who" filter means: an id as is; otherwise users whose name or e-mail contains the text
 * (administrators: the users search; others can only mean themselves).
 */
export async function usersMatching(
  text: string,
  me: { id: string; email: string; admin: boolean; first_name: string | null; last_name: string | null },
): Promise<string[]> {
  const t = text.trim();
  if (UUID.test(t)) return [t];
  if (!me.admin)
    return personLabel({ ...me })
      .toLowerCase()
      .includes(t.toLowerCase())
      ? [me.id]
      : [];
  const r = await ok(api.GET('/users', { params: { query: { search: t, fields: 'id', limit: 100 } } }));
  return (r.data as { id: string }[]).map((u) => u.id);
}
