import type { Pool } from 'pg';
import type { Accountability } from '@vellum/http';
import type { Query } from '@vellum/query';
import { firstIdSince } from '../data/feed.repository';
import type { RecordsReader } from './records-reader';
import type { FeedRevision, FeedSubscription, RevisionFeed } from './revision-feed';
import { compileFilter } from './stream-filter';
import { compileShape, type StreamShape } from './stream-shape';
import { visibilityOf, type AccessRules, type Visibility } from './visibility';

/** Where a stream's events go (the SSE response). */
export interface StreamSink {
  /** One revision; false when the client is behind (wait for `drained` before more). */
  revision(id: number, json: string): boolean;
  /** A live batch's events as event-stream bytes (`liveEventText`, UTF-8), in one write: the streams of a kind share it. */
  text(chunk: Buffer): void;
  /** The `since` asked for is older than retention: what follows starts at `earliest`. */
  reset(earliest: number): void;
  drained(): Promise<void>;
  readonly closed: boolean;
}

export interface StreamDeps {
  feed: RevisionFeed;
  reader: RecordsReader;
  rules: AccessRules;
  pool: Pick<Pool, 'query'>;
  /** REVISIONS_RETENTION: revisions older than this may be pruned (undefined: kept forever). */
  retentionMs?: number;
  now?: () => Date;
}

/** Rows per catch-up read. */
const CATCH_UP_PAGE = 500;

/** One revision as an event-stream event: its id, and its JSON as the data line. */
export const liveEventText = (id: number, json: string): string => `id: ${id}\ndata: ${json}\n\n`;

/**
 * A live batch's events by stream kind (read rule, fields, filter), encoded once: the streams of one kind write the
 * same Buffer (null: nothing of the batch for that kind).
 */
const batchTexts = new WeakMap<FeedRevision[], Map<string, Buffer | null>>();

let shapeIds = 0;
const visibilityIds = new WeakMap<Visibility, number>();
const visibilityKey = (v: Visibility) => {
  let id = visibilityIds.get(v);
  if (id === undefined) visibilityIds.set(v, (id = ++shapeIds));
  return id;
};

/**
 * One subscriber's stream: the revisions after `since` from the database (through the `/revisions` reader, so with
 * its semantics and permissions), then the live ones from the shared feed — no gap and no duplicate at the seam:
 * the feed's listener is registered first and buffers, the catch-up reads up to the feed's cursor, then the buffer
 * (all after the cursor) follows. Live revisions are filtered and shaped in memory with the caller's read rule
 * (`visibilityOf`, compiled once per version of the role's rules): a collection the caller cannot read is never
 * mentioned.
 */
export class RevisionStream {
  private subscription: FeedSubscription | undefined;
  private buffer: FeedRevision[] | null = [];
  /** The highest id handled (sent or filtered out). */
  private position = 0;
  private readonly matches: ReturnType<typeof compileFilter>;
  private readonly shape: StreamShape;
  /** What decides which revisions pass the filter, beside the revisions themselves. */
  private readonly filterKey: string;
  private sink: StreamSink | undefined;
  /** The read rule the keys below were built for (a role's rules change: a new object). */
  private keyedFor: Visibility | undefined;
  /** Read rule and fields: the streams with this key show a revision alike (`FeedRevision.shaped`). */
  private shapeKey = '';
  /** Shape and filter: the streams with this key get the same events of a batch. */
  private kindKey = '';

  constructor(
    private readonly deps: StreamDeps,
    private readonly acc: Accountability,
    private readonly query: Query,
    private readonly since: number | undefined,
  ) {
    const now = deps.now?.() ?? new Date();
    this.matches = compileFilter(query.filter, { now, user: acc.user ?? null, role: acc.role ?? null });
    this.shape = compileShape(query.fields);
    const text = JSON.stringify(query.filter);
    this.filterKey = `${text}|${text.includes('$NOW') ? now.getTime() : ''}|${text.includes('$CURRENT') ? `${acc.user}|${acc.role}` : ''}`;
  }

  /** Subscribes and reads the first catch-up page: what is refused (400, 403) is refused here, before any event. */
  async open(): Promise<{ reset?: number; first: Record<string, unknown>[]; upTo: number }> {
    this.subscription = await this.deps.feed.subscribe((revs) => this.onLive(revs));
    try {
      const cursor = this.subscription.cursor;
      let from = this.since ?? cursor;
      let reset: number | undefined;
      if (this.since !== undefined && this.deps.retentionMs !== undefined) {
        const now = this.deps.now?.() ?? new Date();
        const earliest = (await firstIdSince(this.deps.pool, new Date(now.getTime() - this.deps.retentionMs))) ?? cursor + 1;
        if (this.since < earliest - 1) from = (reset = earliest) - 1;
      }
      this.position = from;
      const first = await this.page(from, cursor);
      return { reset, first, upTo: cursor };
    } catch (err) {
      this.close();
      throw err;
    }
  }

  /** Sends the catch-up, then the buffered live revisions, then goes live. */
  async run(opened: Awaited<ReturnType<RevisionStream['open']>>, sink: StreamSink): Promise<void> {
    this.sink = sink;
    if (opened.reset !== undefined) sink.reset(opened.reset);
    let page = opened.first;
    for (;;) {
      for (const row of page) {
        const id = row.id as number;
        this.position = id;
        if (!sink.revision(id, JSON.stringify(row))) await sink.drained();
        if (sink.closed) return;
      }
      // until a page comes back empty (QUERY_LIMIT_MAX may cap a page below CATCH_UP_PAGE)
      if (page.length === 0 || this.position >= opened.upTo) break;
      page = await this.page(this.position, opened.upTo);
    }
    this.position = Math.max(this.position, opened.upTo);
    const buffered = this.buffer ?? [];
    this.buffer = null;
    this.deliver(buffered);
  }

  close(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  /** `/revisions` as this caller, with the stream's filter and fields, ids in (after, upTo], in id order. */
  private async page(after: number, upTo: number): Promise<Record<string, unknown>[]> {
    const range = [{ id: { _gt: after } }, { id: { _lte: upTo } }];
    const filter = { _and: this.query.filter ? [this.query.filter, ...range] : range };
    const q: Query = { ...this.query, filter, sort: [{ path: 'id', desc: false }], limit: CATCH_UP_PAGE, offset: 0, meta: [], search: null, after: null };
    return (await this.deps.reader.list('revisions', this.acc, q)).data;
  }

  private onLive(revs: FeedRevision[]): void {
    if (this.buffer) this.buffer.push(...revs);
    else this.deliver(revs);
  }

  private deliver(revs: FeedRevision[]): void {
    const sink = this.sink;
    if (!sink || sink.closed) return;
    const visibility = visibilityOf(this.acc, this.deps.rules);
    if (visibility !== this.keyedFor) {
      this.keyedFor = visibility;
      this.shapeKey = `${visibilityKey(visibility)}|${this.shape.key}`;
      this.kindKey = `${this.shapeKey}|${this.filterKey}`;
    }
    // a batch wholly after this stream's position (the live case) may already be encoded for its kind
    const whole = revs.length > 0 && revs[0]!.row.id > this.position;
    let texts = whole ? batchTexts.get(revs) : undefined;
    const shared = texts?.get(this.kindKey);
    if (shared !== undefined) {
      this.position = revs[revs.length - 1]!.row.id;
      if (shared) sink.text(shared);
      return;
    }
    const stats = this.deps.feed.stats;
    let out = '';
    for (const rev of revs) {
      const id = rev.row.id;
      if (id <= this.position) continue;
      this.position = id;
      if (!visibility.all && !Object.hasOwn(visibility.fields, rev.row.collection)) continue;
      if (!this.matches(rev.row)) continue;
      let json = rev.shaped.get(this.shapeKey);
      if (json === undefined) {
        rev.shaped.set(this.shapeKey, (json = JSON.stringify(this.shape.apply(rev, visibility))));
        stats.encoded++;
      }
      out += liveEventText(id, json);
    }
    const bytes = out ? Buffer.from(out) : null;
    if (bytes) stats.texts++;
    if (whole) {
      if (!texts) batchTexts.set(revs, (texts = new Map()));
      texts.set(this.kindKey, bytes);
    }
    if (bytes) sink.text(bytes);
  }
}
