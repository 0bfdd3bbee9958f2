import { api, ok } from '../api/client';
import { useAsync } from '../ui/use-async';
import { useMeOrThrow } from './session';

export type Action = 'create' | 'read' | 'update' | 'delete';

/** What the signed-in user may do: `can(action, collection)`; undefined while the rules load (show nothing yet). */
export type Can = (action: Action, collection: string) => boolean | undefined;

let cached: { user: string; rules: Promise<Set<string>> } | undefined;

/** The rules of the user's role (`GET /permissions/me`), read once per signed-in user. */
function rulesOf(user: string): Promise<Set<string>> {
  if (cached?.user !== user) {
    const rules = ok(api.GET('/permissions/me')).then(
      (r) => new Set((r.data as { collection: string; action: string }[]).map((p) => `${p.action} ${p.collection}`)),
    );
    rules.catch(() => (cached = undefined));
    cached = { user, rules };
  }
  return cached.rules;
}

/** The buttons a page shows follow this: an administrator may do everything, others what their role grants. */
export function useCan(): Can {
  const me = useMeOrThrow();
  const rules = useAsync(async () => (me.admin ? undefined : rulesOf(me.id)), [me.id, me.admin]);
  return (action, collection) => (me.admin ? true : rules.value?.has(`${action} ${collection}`));
}
