import { AppError, errors } from '@vellum/errors';

/** A revision as the caller may read it (GET /revisions/:id of the revisions service). */
export interface ReadRevision {
  id: number;
  collection: string;
  item: string;
  data: Record<string, unknown> | null;
}

/** The caller's own credentials, passed on so the revisions service applies the caller's read permissions. */
export interface Credentials {
  authorization?: string;
  cookie?: string;
  accessToken?: string;
  requestId?: string;
}

const TIMEOUT_MS = 5000;

/** Reads revisions from the revisions service over HTTP (the items service has no copy of the history). */
export class RevisionsClient {
  constructor(private readonly baseUrl: string | undefined) {}

  async revision(id: string, who: Credentials): Promise<ReadRevision> {
    if (!this.baseUrl) throw errors.serviceUnavailable('revisions', 'REVISIONS_URL is not set: restores cannot read revisions');
    if (!/^\d{1,18}$/.test(id)) throw errors.forbidden();
    const url = new URL(`/revisions/${id}`, this.baseUrl);
    url.searchParams.set('fields', 'id,collection,item,data');
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
    const body = (await res.json().catch(() => undefined)) as { data?: ReadRevision; errors?: { message: string; extensions?: { code?: string } }[] } | undefined;
    if (res.ok && body?.data) return { ...body.data, item: String(body.data.item) };
    const err = body?.errors?.[0];
    if (res.status === 403 || res.status === 401) throw new AppError(res.status === 401 ? 'INVALID_CREDENTIALS' : 'FORBIDDEN', err?.message);
    throw errors.serviceUnavailable('revisions', `GET /revisions/${id} answered ${res.status}`);
  }
}
