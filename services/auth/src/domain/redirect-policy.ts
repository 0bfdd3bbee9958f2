/**
 * Where a login may send the browser afterwards: PUBLIC_URL's origin, or an entry of the provider's allow list
 * (exact URL, or same origin with the entry's path; an origin-only entry allows the whole origin). Relative
 * paths resolve against PUBLIC_URL. Refused: scheme-relative `//evil`, backslash tricks `/\evil`, userinfo
 * `https://app@evil`, non-http(s) schemes (`javascript:`), control characters, other hosts.
 * Returns the absolute URL to redirect to, or undefined.
 */
export function allowedRedirect(redirect: string, publicUrl: string, allowList: string[]): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (redirect.length === 0 || redirect.length > 2048 || /[\u0000-\u001f\u007f\s\\]/.test(redirect)) return undefined;
  const base = new URL(publicUrl);
  let u: URL;
  if (redirect.startsWith('/')) {
    if (redirect.startsWith('//')) return undefined;
    u = new URL(redirect, base);
  } else {
    try {
      u = new URL(redirect);
    } catch {
      return undefined;
    }
    // a browser would treat "https:evil.com" or "https:/evil.com" differently: insist on the canonical form
    if (!/^https?:\/\/[^/]/i.test(redirect)) return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password) return undefined;
  if (u.origin === base.origin) return u.toString();
  const ok = allowList.some((entry) => {
    try {
      const a = new URL(entry);
      if (a.username || a.password) return false;
      return a.origin === u.origin && (a.pathname === '/' || a.pathname === u.pathname);
    } catch {
      return false;
    }
  });
  return ok ? u.toString() : undefined;
}
