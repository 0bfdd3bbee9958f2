import { useEffect, useState } from 'preact/hooks';

/** The app lives under /admin; routes are the paths after it ("/users/3"). */
export const BASE = '/admin';
const listeners = new Set<() => void>();

export function currentRoute(): { path: string; query: URLSearchParams } {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return { path: p === '' ? '/' : p, query: new URLSearchParams(location.search) };
}

/** Go to an app route (history push, or replace), then tell the app. */
export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = BASE + (to === '/' ? '' : to);
  if (opts.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const l of listeners) l();
}

addEventListener('popstate', () => {
  for (const l of listeners) l();
});

/** The current route; re-renders the caller on every navigation. */
export function useRoute(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return currentRoute();
}

/** Match "/users/:id" against a path; the parameters, or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) out[a[i].slice(1)] = decodeURIComponent(b[i]);
    else if (a[i] !== b[i]) return undefined;
  }
  return out;
}

/** Navigate to the same route with these query parameters changed (empty values removed). */
export function withQuery(changes: Record<string, string | number | undefined>): string {
  const { path, query } = currentRoute();
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') query.delete(k);
    else query.set(k, String(v));
  }
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}
