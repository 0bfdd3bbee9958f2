import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export interface TraceParent {
  traceId: string;
  spanId: string;
  flags: string;
}

/** A valid W3C `traceparent` (version 00 layout; ids not all zero), or undefined. */
export function parseTraceparent(v: string | string[] | undefined): TraceParent | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  const m = s ? TRACEPARENT.exec(s.trim().toLowerCase()) : null;
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]) || /^0+$/.test(m[3])) return undefined;
  return { traceId: m[2], spanId: m[3], flags: m[4] };
}

export const formatTraceparent = (t: TraceParent): string => `00-${t.traceId}-${t.spanId}-${t.flags}`;

/** The caller's trace continued by a new span of ours (a new sampled trace when the caller sent none). */
export function childTraceparent(incoming: string | string[] | undefined): string {
  const parent = parseTraceparent(incoming);
  const spanId = randomBytes(8).toString('hex');
  return parent ? formatTraceparent({ ...parent, spanId }) : formatTraceparent({ traceId: randomBytes(16).toString('hex'), spanId, flags: '01' });
}
