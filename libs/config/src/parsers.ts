import { z } from 'zod';
import { isIP } from 'node:net';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** "15m", "7d", "500" (ms), "1.5h" → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNITS[m[2] ?? 'ms']);
}

/** A duration in milliseconds, written as "15m", "7d" or a number of ms. */
export const duration = (fallback?: string) => {
  const base = z.string().transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${v}" is not a duration (e.g. 500, 30s, 15m, 7d)` });
      return z.NEVER;
    }
    return ms;
  });
  return fallback === undefined ? base : base.prefault(fallback);
};

/** "true"/"false"/"1"/"0"/"yes"/"no". */
export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { message: 'must be true or false' })
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
    .prefault(fallback ? 'true' : 'false');

export const int = (fallback?: number, opts: { min?: number; max?: number } = {}) => {
  let n = z.coerce.number().int();
  if (opts.min !== undefined) n = n.min(opts.min);
  if (opts.max !== undefined) n = n.max(opts.max);
  return fallback === undefined ? n : n.default(fallback);
};

/** A comma-separated list ("a, b,c") → ["a","b","c"]. */
export const list = (fallback: string[] = []) =>
  z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .prefault(fallback.join(','));

export const url = () => z.string().url();

/** Which peers may set X-Forwarded-For/-Proto/-Host: express's `trust proxy` value. */
export type TrustProxy = boolean | number | string[];

const TRUST_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUST_PROXY entry: a preset, an address, or a subnet (`10.0.0.0/8`, `fd00::/8`, `10.0.0.0/255.0.0.0`). */
function validTrustEntry(entry: string): boolean {
  if (TRUST_PRESETS.has(entry)) return true;
  const [addr, range, extra] = entry.split('/');
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

/**
 * TRUST_PROXY, parsed once for the gateway and every service: `false` (default: trust nobody, the socket address
 * is the client), a hop count (`1` = the peer is one proxy), a comma list of proxy addresses/subnets/presets
 * (`loopback`, `linklocal`, `uniquelocal`), or `true` (trust every hop: only behind a proxy that overwrites the
 * header). An entry that is none of these fails at start.
 */
export const trustProxy = (fallback = 'false') =>
  z
    .string()
    .transform((v, ctx): TrustProxy => {
      const t = v.trim();
      if (t === 'true') return true;
      if (t === 'false' || t === '') return false;
      if (/^\d+$/.test(t)) return Number(t);
      const entries = t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = entries.filter((e) => !validTrustEntry(e));
      if (bad.length) {
        ctx.addIssue({
          code: 'custom',
          message: `${bad.map((b) => `"${b}"`).join(', ')}: not an address, subnet, hop count or loopback/linklocal/uniquelocal`,
        });
        return z.NEVER;
      }
      return entries;
    })
    .prefault(fallback);
