import { errors } from '@vellum/errors';
import type { FeedRevision } from './revision-feed';
import { readable, type Visibility } from './visibility';

const REVISION_FIELDS = ['id', 'activity', 'collection', 'item', 'data', 'delta', 'parent', 'version'] as const;
const ACTIVITY_FIELDS = ['id', 'action', 'user', 'timestamp', 'ip', 'user_agent', 'collection', 'item', 'origin', 'comment'] as const;
type RevisionField = (typeof REVISION_FIELDS)[number];
type ActivityField = (typeof ACTIVITY_FIELDS)[number];

/** A revision as the stream's `fields` show it to a caller who sees `visibility`. */
export interface StreamShape {
  /** Streams with the same key show a revision alike (they share its serialized event). */
  key: string;
  apply(rev: FeedRevision, visibility: Visibility): Record<string, unknown>;
}

const activityValue = (rev: FeedRevision, f: ActivityField): unknown => {
  const r = rev.row;
  switch (f) {
    case 'id':
      return r.activity;
    case 'timestamp':
      return r.timestamp ? r.timestamp.toISOString() : null;
    case 'collection':
      return r.activity_collection;
    case 'item':
      return r.activity_item;
    default:
      return r[f];
  }
};

/**
 * `fields` of a `/revisions` request as a shape in memory: `*`, the revision's own fields, and its activity's
 * (`activity.*`, `activity.action`, …). Anything else (other relations, `*.*`) is 400 INVALID_QUERY.
 */
export function compileShape(fields: string[]): StreamShape {
  const top = new Set<RevisionField>();
  let activity: Set<ActivityField> | undefined;
  for (const f of fields.length ? fields : ['*']) {
    if (f === '*') {
      for (const x of REVISION_FIELDS) top.add(x);
      continue;
    }
    const [head, sub, ...rest] = f.split('.');
    if (sub === undefined && (REVISION_FIELDS as readonly string[]).includes(head!)) {
      top.add(head as RevisionField);
      continue;
    }
    if (head === 'activity' && sub !== undefined && rest.length === 0) {
      activity ??= new Set();
      if (sub === '*') for (const x of ACTIVITY_FIELDS) activity.add(x);
      else if ((ACTIVITY_FIELDS as readonly string[]).includes(sub)) activity.add(sub as ActivityField);
      else throw errors.invalidQuery(`The revision stream cannot show "${f}".`);
      continue;
    }
    throw errors.invalidQuery(`The revision stream cannot show "${f}".`);
  }
  const own = REVISION_FIELDS.filter((x) => top.has(x) && !(x === 'activity' && activity));
  const nested = activity ? ACTIVITY_FIELDS.filter((x) => activity.has(x)) : undefined;
  const key = `${own.join(',')}|${nested?.join(',') ?? ''}`;
  return {
    key,
    apply(rev, visibility) {
      const r = rev.row;
      const allowed = visibility.all ? '*' : (visibility as { fields: Record<string, '*' | string[]> }).fields[r.collection];
      const reduce = (v: unknown) => (visibility.all ? v : readable(v, allowed === undefined ? undefined : allowed === '*' ? '*' : new Set(allowed)));
      const out: Record<string, unknown> = {};
      for (const f of own) {
        if (f === 'data') out.data = reduce(rev.data);
        else if (f === 'delta') out.delta = reduce(rev.delta);
        else out[f] = r[f];
      }
      if (nested) {
        if (r.activity === null) out.activity = null;
        else {
          const a: Record<string, unknown> = {};
          for (const f of nested) a[f] = activityValue(rev, f);
          out.activity = a;
        }
      }
      return out;
    },
  };
}
