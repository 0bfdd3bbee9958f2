import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RetainedEntity, RetainedRow } from '../data/retention.repository';

/**
 * What an archive holds, written beside it (`<file>.manifest.json`) after every batch, before the batch's delete
 * commits: a run that dies leaves a manifest that covers every row it deleted.
 */
export interface ArchiveManifest {
  format: 'vellum-archive/1';
  entity: RetainedEntity;
  /** The archive's file name (same folder). */
  file: string;
  rows: number;
  /** The archive's length covered by this manifest (a batch appended by a run that died before it is past it). */
  bytes: number;
  first_id: number | null;
  last_id: number | null;
  /** sha256 (hex) of the NDJSON text (uncompressed): one line per row, `to_jsonb` of the row. */
  sha256: string;
  cutoff: string;
  created_at: string;
}

const fsyncPath = async (p: string) => {
  const h = await fs.open(p, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
};

/**
 * An archive being written: NDJSON, gzip, one gzip member per batch, appended and fsynced, then the manifest
 * updated, before the batch's delete commits (a crash in between leaves rows in the archive that are still in
 * the database: importing them skips what is present).
 */
export class ArchiveWriter {
  private readonly hash = createHash('sha256');
  private rows = 0;
  private bytes = 0;
  private first: number | null = null;
  private last: number | null = null;

  private constructor(
    readonly file: string,
    private readonly entity: RetainedEntity,
    private readonly cutoff: Date,
  ) {}

  static async create(dir: string, entity: RetainedEntity, cutoff: Date, now = new Date()): Promise<ArchiveWriter> {
    await fs.mkdir(dir, { recursive: true });
    const name = `${entity}-${now.toISOString().replace(/[:.]/g, '-')}.ndjson.gz`;
    return new ArchiveWriter(path.join(dir, name), entity, cutoff);
  }

  /** Append a batch and make it durable, with a manifest that covers it. */
  async append(rows: RetainedRow[], now = new Date()): Promise<void> {
    if (rows.length === 0) return;
    const text = rows.map((r) => `${r.json}\n`).join('');
    const gz = gzipSync(text);
    const h = await fs.open(this.file, 'a');
    try {
      await h.write(gz);
      await h.sync();
    } finally {
      await h.close();
    }
    this.hash.update(text);
    this.rows += rows.length;
    this.bytes += gz.length;
    this.first ??= rows[0]!.id;
    this.last = rows[rows.length - 1]!.id;
    await this.writeManifest(now);
  }

  /** The manifest so far, or undefined when nothing was archived (then there is no file either). */
  manifest(now = new Date()): ArchiveManifest | undefined {
    if (this.rows === 0) return undefined;
    return {
      format: 'vellum-archive/1',
      entity: this.entity,
      file: path.basename(this.file),
      rows: this.rows,
      bytes: this.bytes,
      first_id: this.first,
      last_id: this.last,
      sha256: this.hash.copy().digest('hex'),
      cutoff: this.cutoff.toISOString(),
      created_at: now.toISOString(),
    };
  }

  private async writeManifest(now: Date): Promise<void> {
    const target = `${this.file}.manifest.json`;
    await fs.writeFile(`${target}.tmp`, `${JSON.stringify(this.manifest(now), null, 2)}\n`);
    await fsyncPath(`${target}.tmp`);
    await fs.rename(`${target}.tmp`, target);
    await fsyncPath(path.dirname(target));
  }
}

export class ArchiveError extends Error {}

/** Read an archive by its manifest and check it: the row count and the checksum must match. */
export async function readArchive(manifestPath: string): Promise<{ manifest: ArchiveManifest; lines: string[] }> {
  const manifest = JSON.parse(await fs.readFile(manifestPath, 'utf8')) as ArchiveManifest;
  if (manifest.format !== 'vellum-archive/1') throw new ArchiveError(`${manifestPath}: not a Vellum archive manifest`);
  const data = await fs.readFile(path.join(path.dirname(manifestPath), manifest.file));
  const text = gunzipSync(data.subarray(0, manifest.bytes)).toString('utf8');
  const sha256 = createHash('sha256').update(text).digest('hex');
  const lines = text.split('\n').filter((l) => l !== '');
  if (sha256 !== manifest.sha256 || lines.length !== manifest.rows)
    throw new ArchiveError(
      `${manifest.file}: does not match its manifest (${lines.length} rows, sha256 ${sha256}; manifest: ${manifest.rows}, ${manifest.sha256})`,
    );
  return { manifest, lines };
}
