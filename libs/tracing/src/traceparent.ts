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

/**
 * Random ids drawn from a pool filled 4 KB at a time: one `randomBytes` call per ~500 span ids instead of one (a
 * system call and a Buffer) per request. The ids are as random as before.
 */
let pool = Buffer.alloc(0);
let used = 0;
function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    pool = randomBytes(4096);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

/** A new span id (16 hex digits, not all zero). */
function newSpanId(): string {
  for (;;) {
    const id = randomHex(8);
    if (id !== '0000000000000000') return id;
  }
}

/** The caller's trace continued by a new span of ours (a new sampled trace when the caller sent none). */
export function childTraceparent(incoming: string | string[] | undefined): string {
  const parent = parseTraceparent(incoming);
  const spanId = newSpanId();
  return parent ? `00-${parent.traceId}-${spanId}-${parent.flags}` : `00-${randomHex(8)}${newSpanId()}-${spanId}-01`;
}
