import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '@vellum/errors';

/**
 * `If-Match` → the item versions it names (`"6"`, also a bare `6`; a list matches any), null when absent or `*`
 * (the item must exist, as every write requires). A weak tag (`W/"6"`) never matches (RFC 9110: strong comparison).
 */
export function ifMatchOf(req: IncomingMessage): number[] | null {
  const h = req.headers['if-match'];
  if (h === undefined || h.trim() === '*') return null;
  return h
    .split(',')
    .map((t) => /^\s*"?(\d{1,15})"?\s*$/.exec(t)?.[1])
    .filter((v): v is string => v !== undefined)
    .map(Number);
}

/** A write of several items under `If-Match` with tags → 412, nothing written (it was ignored: no lost-update guard); `*` passes. */
export function refuseListPrecondition(req: IncomingMessage): void {
  if (ifMatchOf(req) !== null) throw errors.listHasNoVersion();
}

/**
 * The item's version on a one-item answer: `ETag: "6"` (what `If-Match` takes) and `X-Vellum-Version:
 * <collection>/<key>@6`, which `GET /revisions` takes as `X-Vellum-Min-Version` to read this write's revision.
 */
export function setVersionHeaders(res: ServerResponse, collection: string, key: unknown, version: number | undefined): void {
  if (version === undefined || !Number.isFinite(version)) return;
  res.setHeader('ETag', `"${version}"`);
  res.setHeader('X-Vellum-Version', `${collection}/${String(key)}@${version}`);
}
