import type { OutgoingHttpHeaders } from 'node:http';

/** Headers a subgraph needs to verify the caller again and to record who did what (activity ip/user agent). */
const FORWARDED = [
  'cookie',
  'x-request-id',
  'traceparent',
  'tracestate',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'user-agent',
  'origin',
  'accept-language',
];

/**
 * The caller's headers a subgraph request carries: FORWARDED of what a proxied request would (`up`:
 * forwardedRequestHeaders), and the caller's token by one method only — a
 * `?access_token=` (`queryToken`) travels as a bearer. Lower-case names, as Headers gives them.
 */
export function subgraphHeaders(up: OutgoingHttpHeaders, authorization: string | undefined, queryToken: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of FORWARDED) {
    const v = up[h];
    if (v !== undefined) headers[h] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  if (authorization) headers.authorization = authorization;
  else if (typeof queryToken === 'string' && queryToken) headers.authorization = `Bearer ${queryToken}`;
  return headers;
}
