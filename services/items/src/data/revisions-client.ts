import { AppError, errors } from '@vellum/errors';

/** A revision as the caller may read it (GET /revisions/:id of the revisions service). */
export interface ReadRevision {
  id: number;
  collection: string;
  item: string;
  data: Record<string, unknown> | null;
  /** The revision's activity (`create`, `update`, `revert`, `promote`, `delete`), when the caller may read it. */
  activity?: { action: string } | null;
  /** The revision of the row whose write carried this one (a nested write's tree). */
  parent?: number | null;
}

/** The caller's own credentials, passed on so the revisions service applies the caller's read permissions. */
export interface Credentials {
  authorization?: string;
  cookie?: string;
  accessToken?: string;
  requestId?: string;
}

const TIMEOUT_MS = 5000;
const FIELDS = 'id,collection,item,data,parent,activity.action';
type Body<T> = { data?: T; errors?: { message: string; extensions?: { code?: string } }[] } | undefined;

/** Reads revisions from the revisions service over HTTP (the items service has no copy of the history). */
export class RevisionsClient {
  constructor(private readonly baseUrl: string | undefined) {}

  async revision(id: string, who: Credentials): Promise<ReadRevision> {
    if (!/^\d{1,18}$/.test(id)) throw errors.forbidden();
    const data = await this.get<ReadRevision>(`/revisions/${id}`, { fields: FIELDS }, who);
    return { ...data, item: String(data.item) };
  }

  /**
   * The revisions whose `parent` is one of `ids` (the next level of a nested write's tree), oldest first, as the
   * caller may read them: the revisions service leaves out those of collections the caller cannot read.
   */
  async children(ids: number[], who: Credentials): Promise<ReadRevision[]> {
    if (ids.length === 0) return [];
    const filter = JSON.stringify({ parent: { _in: ids } });
    const data = await this.get<ReadRevision[]>('/revisions', { filter, fields: FIELDS, sort: 'id', limit: '-1' }, who);
    return data.map((r) => ({ ...r, item: String(r.item) }));
  }

  private async get<T>(path: string, query: Record<string, string>, who: Credentials): Promise<T> {
    if (!this.baseUrl) throw errors.serviceUnavailable('revisions', 'REVISIONS_URL is not set: restores cannot read revisions');
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    if (who.accessToken) url.searchParams.set('access_token', who.accessToken);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (who.authorization) headers.authorization = who.authorization;
    if (who.cookie) headers.cookie = who.cookie;
    if (who.requestId) headers['x-request-id'] = who.requestId;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (e) {
      throw errors.serviceUnavailable('revisions', (e as Error).message);
    }
    const body = (await res.json().catch(() => undefined)) as Body<T>;
    if (res.ok && body?.data) return body.data;
    const err = body?.errors?.[0];
    if (res.status === 403 || res.status === 401) throw new AppError(res.status === 401 ? 'INVALID_CREDENTIALS' : 'FORBIDDEN', err?.message);
    throw errors.serviceUnavailable('revisions', `GET ${path} answered ${res.status}`);
  }
}
