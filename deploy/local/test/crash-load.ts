import { existsSync, readdirSync } from 'node:fs';
import { Client } from 'pg';

// Load and checks shared by the crash tests: item writers and password requesters against a gateway, then
// "everything acknowledged is recorded exactly once" read back through the same gateway.

export interface LoadResult {
  /** Item ids whose create was acknowledged (2xx). */
  ackedItems: string[];
  /** Password requests acknowledged (204). */
  ackedRequests: number;
  /** Request attempts per outcome: HTTP status, or 'error' (connection refused/reset, timeout). */
  outcomes: Record<string, number>;
  /** Slowest answer (ms), errors included. */
  maxMs: number;
  /** Of `ackedItems`, those written with nested children (LoadOptions.nested). */
  ackedNested: string[];
}

export interface Load {
  /** Resolves once `items` writes and `requests` mail requests are acknowledged (rejects after `timeoutMs`). */
  acknowledged(o: { items?: number; requests?: number }, timeoutMs?: number): Promise<void>;
  /** What is acknowledged so far. */
  counts(): { items: number; requests: number };
  stop(): Promise<LoadResult>;
}

interface LoadOptions {
  /** Returns the gateway URL (it can change when a test restarts the platform). */
  url: () => string;
  token: string;
  collection: string;
  writers: number;
  /** One requester per address. */
  requesters: string[];
  resetUrl: string;
  /** Per-request timeout (ms), default 10 s: longer counts as an error (a hang). */
  timeoutMs?: number;
  /** Odd writers create each item with this many children through its alias field (see NESTED). */
  nested?: number;
}

/** The nested writes of the crash tests: `replies` rows created through the `replies` alias of the loaded collection. */
export const NESTED = { collection: 'replies', alias: 'replies', field: 'note' };

/** `replies` (`note` → `<collection>`, alias `replies`): what the nested writers write into. */
export async function setUpNested(call: (method: string, p: string, body?: unknown) => Promise<{ status: number }>, collection: string) {
  const id = { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true } };
  const fields = [id, { field: 'body', type: 'string' }, { field: NESTED.field, type: 'integer' }];
  const made = await call('POST', '/collections', { collection: NESTED.collection, fields });
  const related = await call('POST', '/relations', {
    collection: NESTED.collection,
    field: NESTED.field,
    related_collection: collection,
    meta: { one_field: NESTED.alias },
  });
  if (made.status !== 200 || related.status !== 200) throw new Error(`nested set-up: ${made.status} ${related.status}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One JSON request to the gateway on 127.0.0.1:`port`. */
export async function api(
  port: number,
  method: string,
  p: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; json: { data?: Record<string, unknown> } }> {
  const r = await fetch(`http://127.0.0.1:${port}${p}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : {} };
}

export function startLoad(o: LoadOptions): Load {
  const result: LoadResult = { ackedItems: [], ackedRequests: 0, outcomes: {}, maxMs: 0, ackedNested: [] };
  let running = true;
  const call = async (path: string, body: unknown, auth: boolean): Promise<{ status: number | 'error'; json?: unknown }> => {
    const t = Date.now();
    let status: number | 'error' = 'error';
    let json: unknown;
    try {
      const r = await fetch(`${o.url()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${o.token}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
      status = r.status;
      json = r.status === 200 ? await r.json() : await r.text();
    } catch {
      status = 'error';
    }
    result.maxMs = Math.max(result.maxMs, Date.now() - t);
    result.outcomes[status] = (result.outcomes[status] ?? 0) + 1;
    return { status, json };
  };
  const writer = async (w: number) => {
    for (let n = 0; running; n++) {
      const nested = o.nested && w % 2 === 1 ? { [NESTED.alias]: Array.from({ length: o.nested }, (_, i) => ({ body: `w${w}-${n}-${i}` })) } : {};
      const r = await call(`/items/${o.collection}`, { title: `w${w}-${n}`, ...nested }, true);
      if (r.status === 200) {
        const id = String((r.json as { data: { id: unknown } }).data.id);
        result.ackedItems.push(id);
        if (o.nested && w % 2 === 1) result.ackedNested.push(id);
      } else await sleep(50);
    }
  };
  const requester = async (email: string) => {
    while (running) {
      const r = await call('/auth/password/request', { email, reset_url: o.resetUrl }, false);
      if (r.status === 204) result.ackedRequests++;
      else await sleep(50);
    }
  };
  const all = [...Array.from({ length: o.writers }, (_, i) => writer(i)), ...o.requesters.map(requester)];
  return {
    counts: () => ({ items: result.ackedItems.length, requests: result.ackedRequests }),
    async acknowledged({ items = 0, requests = 0 }, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      while (result.ackedItems.length < items || result.ackedRequests < requests) {
        if (Date.now() > end)
          throw new Error(`load: ${result.ackedItems.length}/${items} items, ${result.ackedRequests}/${requests} requests acknowledged in ${timeoutMs} ms`);
        await sleep(50);
      }
    },
    async stop() {
      running = false;
      await Promise.all(all);
      return result;
    },
  };
}

async function getJson(url: string, token: string): Promise<{ data: Record<string, unknown>[] }> {
  const r = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${await r.text()}`);
  return (await r.json()) as { data: Record<string, unknown>[] };
}

interface Recorded {
  items: string[];
  /** Revisions per item id. */
  revisions: Map<string, number>;
}

/** The collection's items and its revisions per item, read through the gateway. */
export async function readRecorded(url: string, token: string, collection: string): Promise<Recorded> {
  const items = await getJson(`${url}/items/${collection}?fields=id&limit=-1`, token);
  const filter = encodeURIComponent(JSON.stringify({ collection: { _eq: collection } }));
  const revs = await getJson(`${url}/revisions?filter=${filter}&fields=item&limit=-1`, token);
  const revisions = new Map<string, number>();
  for (const r of revs.data) revisions.set(String(r.item), (revisions.get(String(r.item)) ?? 0) + 1);
  return { items: items.data.map((i) => String(i.id)), revisions };
}

/** What the checks found wrong (empty when every acknowledged write is stored with exactly one revision). */
export function recordingProblems(rec: Recorded, ackedItems: string[]): string[] {
  const problems: string[] = [];
  const stored = new Set(rec.items);
  const lost = ackedItems.filter((id) => !stored.has(id));
  if (lost.length) problems.push(`${lost.length} acknowledged items not stored (e.g. ${lost.slice(0, 3).join(', ')})`);
  const missing = rec.items.filter((id) => !rec.revisions.has(id));
  if (missing.length) problems.push(`${missing.length} of ${rec.items.length} stored items without a revision`);
  const doubled = [...rec.revisions].filter(([, n]) => n > 1);
  if (doubled.length) problems.push(`${doubled.length} items with more than one revision`);
  const orphans = [...rec.revisions.keys()].filter((id) => !stored.has(id));
  if (orphans.length) problems.push(`${orphans.length} revisions of items not stored`);
  return problems;
}

/**
 * The nested writes' checks: every acknowledged nested item has its `children` rows, each child has exactly one
 * revision, and that revision's `parent` is a revision of the item that carried it.
 */
export async function nestedProblems(url: string, token: string, collection: string, ackedNested: string[], children: number): Promise<string[]> {
  const rows = await getJson(`${url}/items/${NESTED.collection}?fields=id,${NESTED.field}&limit=-1`, token);
  const filter = encodeURIComponent(JSON.stringify({ collection: { _eq: NESTED.collection } }));
  const revs = await getJson(`${url}/revisions?filter=${filter}&fields=item,parent.collection,parent.item&limit=-1`, token);
  const perItem = new Map<string, number>();
  for (const r of rows.data) perItem.set(String(r[NESTED.field]), (perItem.get(String(r[NESTED.field])) ?? 0) + 1);
  const revsOf = new Map<string, ({ collection: string; item: string } | null)[]>();
  for (const r of revs.data) revsOf.set(String(r.item), [...(revsOf.get(String(r.item)) ?? []), r.parent as { collection: string; item: string } | null]);
  const p: string[] = [];
  const short = ackedNested.filter((id) => (perItem.get(id) ?? 0) !== children);
  if (short.length) p.push(`${short.length} acknowledged nested items without their ${children} children (e.g. ${short.slice(0, 3).join(', ')})`);
  const counts = rows.data.filter((r) => (revsOf.get(String(r.id)) ?? []).length !== 1);
  if (counts.length) p.push(`${counts.length} of ${rows.data.length} children without exactly one revision`);
  const orphans = rows.data.filter((r) => {
    const parent = revsOf.get(String(r.id))?.[0];
    return !parent || parent.collection !== collection || parent.item !== String(r[NESTED.field]);
  });
  if (orphans.length) p.push(`${orphans.length} child revisions whose parent is not their item's revision`);
  return p;
}

/** Polls `check` until it reports no problem; returns the last problems when the time is up. */
export async function settle(check: () => Promise<string[]>, timeoutMs: number): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  let last: string[] = ['not checked'];
  while (Date.now() < end) {
    try {
      last = await check();
    } catch (err) {
      last = [(err as Error).message];
    }
    if (last.length === 0) return last;
    await sleep(500);
  }
  return last;
}

/**
 * One mail per committed mail job: every auth outbox row for the MAIL queue has its `<job id>.eml` (file
 * transport), no file lacks a job, nothing is left unpublished, and at least the acknowledged requests committed.
 */
export async function mailProblems(authDbUrl: string, mailDir: string, ackedRequests: number): Promise<string[]> {
  const db = new Client({ connectionString: authDbUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string; published: boolean }>(
      `SELECT id, published_at IS NOT NULL AS published FROM outbox WHERE destination = 'MAIL'`,
    );
    const jobs = new Set(rows.map((r) => r.id));
    const files = existsSync(mailDir)
      ? readdirSync(mailDir)
          .filter((f) => f.endsWith('.eml'))
          .map((f) => f.slice(0, -4))
      : [];
    const p: string[] = [];
    if (jobs.size < ackedRequests) p.push(`${jobs.size} mail jobs committed < ${ackedRequests} acknowledged requests`);
    const unsent = [...jobs].filter((j) => !files.includes(j));
    if (unsent.length) p.push(`${unsent.length} of ${jobs.size} committed mail jobs without a mail`);
    const extra = files.filter((f) => !jobs.has(f));
    if (extra.length) p.push(`${extra.length} mails without a committed job`);
    const unpublished = rows.filter((r) => !r.published).length;
    if (unpublished) p.push(`${unpublished} mail jobs still unpublished`);
    return p;
  } finally {
    await db.end();
  }
}
