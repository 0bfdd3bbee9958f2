import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok, onSessionEnded } from '../api/client';

/** The signed-in user as the app needs it (the session itself is an HttpOnly cookie the page never reads). */
export interface Me {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  tfa: boolean;
  admin: boolean;
  roleName: string | null;
}

/** undefined: not known yet; null: signed out. */
let me: Me | null | undefined;
/** Why the session could not be checked (the API down): shown with a retry instead of waiting forever. */
let loadError: string | undefined;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Ask the API who the session belongs to (401/403 → signed out). */
export async function loadMe(): Promise<Me | null> {
  loadError = undefined;
  try {
    const r = await ok(api.GET('/users/me', { params: { query: { fields: '*,role.name,role.admin_access' } } }));
    const u = r.data as unknown as {
      id: string;
      email: string;
      first_name: string | null;
      last_name: string | null;
      tfa_secret: string | null;
      role: { name?: string; admin_access?: boolean } | null;
    };
    me = {
      id: u.id,
      email: u.email,
      first_name: u.first_name,
      last_name: u.last_name,
      tfa: !!u.tfa_secret,
      admin: !!u.role?.admin_access,
      roleName: u.role?.name ?? null,
    };
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) {
      loadError = e instanceof Error ? e.message : String(e);
      emit();
      throw e;
    }
    me = null;
  }
  emit();
  return me;
}

/**
 * Ends the session; `leave` runs before the app learns it is signed out, so the page it sends the user to is in
 * place first (otherwise the page being left re-renders signed out and redirects to sign-in with `?next=` back to
 * itself — CI saw that race win).
 */
export async function signOut(leave?: () => void): Promise<void> {
  await api.POST('/auth/logout', { body: { mode: 'session' } }).catch(() => undefined);
  leave?.();
  me = null;
  emit();
}

// A revoked or expired session: the app shows the sign-in page (with the way back) instead of failing calls.
onSessionEnded(() => {
  if (me === null) return;
  me = null;
  emit();
});

/** The problem of the last session check, if it failed for another reason than "not signed in". */
export const sessionError = () => loadError;

/**
 * The session as a hook: re-renders on sign in/out. `check` false (the signed-out pages: sign-in, reset…) asks
 * nothing: a signed-out browser's `GET /users/me` is a 403 in its console.
 */
export function useMe(check = true): Me | null | undefined {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  useEffect(() => {
    if (check && me === undefined) loadMe().catch(() => undefined);
  }, [check]);
  return me;
}

/** The session on a page that is only shown signed in. */
export function useMeOrThrow(): Me {
  const m = useMe();
  if (!m) throw new Error('not signed in');
  return m;
}
