import type { Pool } from 'pg';
import { errors } from '@vellum/errors';
import { recordedVersions, type ItemVersion } from '../data/recorded-versions.repository';

const ONE = /^([a-z][a-z0-9_]*)\/([^@\s,]{1,200})@(\d{1,15})$/;
const MAX_ITEMS = 20;
const POLL_MS = 10;

/** `X-Vellum-Min-Version: articles/7@6[, …]` (what an item write answers as `X-Vellum-Version`) → the versions wanted. */
export function parseMinVersion(header: string): ItemVersion[] {
  const parts = header.split(',').map((p) => p.trim());
  if (parts.length > MAX_ITEMS) throw errors.invalidQuery(`X-Vellum-Min-Version names at most ${MAX_ITEMS} items`);
  return parts.map((p) => {
    const m = ONE.exec(p);
    if (!m) throw errors.invalidQuery('X-Vellum-Min-Version takes <collection>/<item>@<version>, as the write answered in X-Vellum-Version');
    return { collection: m[1]!, item: m[2]!, version: Number(m[3]) };
  });
}

/**
 * Read your own write: waits until every named item's revision of at least that version is recorded,
 * re-reading every POLL_MS, for at most `maxWaitMs`; returns what is still missing then (empty: all recorded).
 */
export async function waitForVersions(pool: Pool, wanted: ItemVersion[], maxWaitMs: number): Promise<ItemVersion[]> {
  const until = Date.now() + maxWaitMs;
  let missing = wanted;
  for (;;) {
    const recorded = await recordedVersions(pool, missing);
    missing = missing.filter((w, i) => recorded[i]! < w.version);
    if (missing.length === 0 || Date.now() >= until) return missing;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, until - Date.now()))));
  }
}

/** The `X-Vellum-Behind` value for what a bounded wait did not see recorded. */
export const behindHeader = (missing: ItemVersion[]) => missing.map((w) => `${w.collection}/${w.item}@${w.version}`).join(', ');
