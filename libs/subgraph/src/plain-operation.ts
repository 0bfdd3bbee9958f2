import type { IncomingHttpHeaders } from 'node:http';

/** A GraphQL request as the fast paths take it (see plainOperation). */
export interface PlainOperation {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

const BODY_KEYS = new Set(['query', 'variables', 'operationName']);

/**
 * The request's body as a plain GraphQL operation, or undefined: a JSON POST (`Content-Type: application/json`)
 * of `query` (a string), `variables` (an object, or absent/null), `operationName` (a string, or absent/null) and
 * nothing else (no `extensions`: persisted queries), asking for JSON (no `Accept`, or one that is JSON only — not
 * `application/graphql-response+json`, which Apollo Server answers with another media type). Everything else is
 * left to Apollo Server, which answers or rejects it as always.
 */
export function plainOperation(method: string | undefined, headers: IncomingHttpHeaders, body: unknown): PlainOperation | undefined {
  if (method !== 'POST' || !body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.query !== 'string') return undefined;
  for (const k in b) if (!BODY_KEYS.has(k)) return undefined;
  const v = b.variables;
  if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) return undefined;
  const n = b.operationName;
  if (n !== undefined && n !== null && typeof n !== 'string') return undefined;
  const type = headers['content-type'];
  if (!type || !/^application\/json\s*(;|$)/i.test(type)) return undefined;
  const accept = headers.accept;
  if (accept !== undefined && accept !== '*/*' && !/^application\/json\s*(;\s*charset=utf-8)?$/i.test(accept)) return undefined;
  return b as unknown as PlainOperation;
}
