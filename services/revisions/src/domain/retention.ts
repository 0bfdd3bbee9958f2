import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool, PoolClient } from 'pg';
import { inTransaction, isBroken } from '@vellum/db';
import { lastIdBefore, pruneBatch, type RetainedEntity } from '../data/retention.repository';
import { PartitionBusyError, dropPrunedLeftovers, prunePartition, type PartitionPruneOptions } from '../data/partition-prune';
import { newestTimestamp, partitionsOf, type Partition } from '../data/partitions.repository';
import { ArchiveWriter, type ArchiveManifest } from './archive-file';

export interface RetentionPolicy {
  /** Revisions older than this (ms) are pruned, except each item's newest `keepLast`. Undefined: kept forever. */
  revisionsMaxAgeMs?: number;
  /** The newest revisions kept per item whatever their age (≥ 1: an item's latest revision is never pruned). */
  keepLast: number;
  /** Activity older than this (ms) is pruned once no revision refers to it. Undefined: kept forever. */
  activityMaxAgeMs?: number;
  /** Rows per transaction (each a short lock on the rows it deletes and on their counters). */
  batchSize: number;
  /** Archive every pruned row here (NDJSON, gzip, with a manifest) before its delete commits. */
  archiveDir?: string;
  /** How long a partition swap waits for its lock per attempt (readers queue behind it meanwhile); default 100 ms. */
  swapLockTimeoutMs?: number;
}

export interface EntityReport {
  pruned: number;
  cutoff: string;
  /** The closed partitions pruned whole (their kept rows swapped in, or the partition dropped). */
  partitions?: string[];
  /** How many times those swaps waited for their lock (one per partition when none timed out). */
  swapLockAttempts?: number;
  /** A partition that writers kept needing (see PartitionBusyError): it and what follows wait for the next run. */
  deferred?: string;
  archive?: ArchiveManifest;
}
export type RetentionReport = Partial<Record<RetainedEntity, EntityReport>>;

export interface RunRetentionOptions {
  now?: Date;
  /** Checked between batches: a stopping service ends the run after the batch in hand. */
  stopping?: () => boolean;
}

/** One retention run: revisions first (their activity may then go too), then activity. */
export async function runRetention(pool: Pool, policy: RetentionPolicy, opts: RunRetentionOptions = {}): Promise<RetentionReport> {
  const now = opts.now ?? new Date();
  const report: RetentionReport = {};
  const plan: [RetainedEntity, number | undefined][] = [
    ['revisions', policy.revisionsMaxAgeMs],
    ['activity', policy.activityMaxAgeMs],
  ];
  for (const [entity, maxAge] of plan) {
    if (maxAge === undefined || opts.stopping?.()) continue;
    report[entity] = await pruneEntity(pool, entity, new Date(now.getTime() - maxAge), policy, opts);
  }
  return report;
}

async function pruneEntity(pool: Pool, entity: RetainedEntity, cutoff: Date, policy: RetentionPolicy, opts: RunRetentionOptions): Promise<EntityReport> {
  const client = await pool.connect();
  try {
    await dropPrunedLeftovers(client);
    const untilId = await lastIdBefore(client, entity, cutoff);
    const archive = policy.archiveDir ? await ArchiveWriter.create(policy.archiveDir, entity, cutoff, opts.now) : undefined;
    let afterId = 0;
    let pruned = 0;
    const partitions: string[] = [];
    let swapLockAttempts = 0;
    let deferred: string | undefined;
    // closed partitions whose newest row is older than the cutoff: pruned whole, oldest first
    for (const part of await partitionsOf(client, entity)) {
      if (part.hi === null || opts.stopping?.()) break;
      const newest = await newestTimestamp(client, part.name);
      if (newest !== undefined && newest >= cutoff) break;
      const out = await pruneWhole(
        client,
        entity,
        { ...part, hi: part.hi },
        {
          cutoff,
          keepLast: policy.keepLast,
          lockTimeoutMs: policy.swapLockTimeoutMs ?? 100,
          lockAttempts: 50,
          onPruned: archive ? (rows) => archive.append(rows) : undefined,
        },
      );
      if (!out) {
        // writers kept needing it: the rest of this entity waits for the next run (its rows are all older)
        deferred = part.name;
        break;
      }
      pruned += out.pruned;
      partitions.push(out.partition);
      swapLockAttempts += out.lockAttempts;
      afterId = part.hi - 1;
    }
    // the rest (the partitions holding the cutoff, the open one): batch by batch
    while (deferred === undefined && afterId < untilId && !opts.stopping?.()) {
      const rows = await inTransaction(client, async () => {
        const batch = await pruneBatch(client, entity, { afterId, untilId, cutoff, limit: policy.batchSize, keepLast: policy.keepLast });
        await archive?.append(batch);
        return batch;
      });
      pruned += rows.length;
      if (rows.length < policy.batchSize) break;
      afterId = rows[rows.length - 1]!.id;
    }
    return {
      pruned,
      cutoff: cutoff.toISOString(),
      ...(partitions.length ? { partitions, swapLockAttempts } : {}),
      ...(deferred ? { deferred } : {}),
      ...(archive?.manifest() ? { archive: archive.manifest() } : {}),
    };
  } finally {
    client.release(isBroken(client));
  }
}

/** prunePartition, given up to 5 tries when it gives way to a writer; undefined when it gave way every time. */
async function pruneWhole(client: PoolClient, entity: RetainedEntity, part: Partition & { hi: number }, o: PartitionPruneOptions) {
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      return await prunePartition(client, entity, part, o);
    } catch (err) {
      if (!(err instanceof PartitionBusyError)) throw err;
      await sleep(100 * attempt);
    }
  }
  return undefined;
}
