import { z } from 'zod';

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
    .prefault(fallback ? "true" : "false");

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
    .prefault(fallback.join(","));

export const url = () => z.string().url();
