/** One JSON call to the platform's API, as `token` (none: public); a non-2xx answer throws with its body. */
export async function api(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const r = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${url} → ${r.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
