import type { Page, Request } from 'playwright-core';

/** The write requests the page sends to /items while `fn` runs (method, path, body). */
export async function writesDuring(page: Page, fn: () => Promise<void>): Promise<{ method: string; path: string; body: unknown }[]> {
  const seen: { method: string; path: string; body: unknown }[] = [];
  const on = (r: Request) => {
    if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/items/'))
      seen.push({ method: r.method(), path: new URL(r.url()).pathname, body: r.postDataJSON() });
  };
  page.on('request', on);
  await fn();
  page.off('request', on);
  return seen;
}
