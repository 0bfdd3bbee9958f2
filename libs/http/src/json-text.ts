import type { ServerResponse } from 'node:http';
import { stringifyJson } from '@vellum/contracts';
import { encodeBody } from './compress-body';

/**
 * `res.json(body)` for bodies that may hold RawJson values: the same status, headers and JSON once parsed —
 * written straight to node:http (express's `send` would only add work here: no ETag, no 304 in this API).
 */
export function sendJson(res: ServerResponse, body: unknown): void {
  sendJsonText(res, stringifyJson(body));
}

/**
 * A 200 (or the status set) with this JSON text as the body (compressed for a client that accepts it: encodeBody). node:http measures the body for
 * its Content-Length as it ends the response (a text built piece by piece is measured once, not twice); a HEAD
 * answer, which has no body, gets the length set here.
 */
export function sendJsonText(res: ServerResponse, text: string): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  const body = encodeBody(res, text);
  if (res.req.method === 'HEAD') res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body); // node:http leaves the body out of a HEAD answer
}
