import { useRef, useState } from 'preact/hooks';
import { api, json, ok, type Revision } from '../../api/client';
import { useRevisionStream } from '../../data/revision-stream';
import { useWho } from '../../data/user-names';
import { Alert, Empty } from '../../ui/page';
import { useAsync } from '../../ui/use-async';
import { NestedChanges, useNestedChildren } from './nested-changes';
import { RestoreFields } from './restore-fields';
import { HistoryTools } from './history-tools';
import { RevisionDiff } from './revision-diff';

type Rev = Revision & { activity?: { action?: string; user?: string | null; timestamp?: string } };
type Data = Record<string, unknown>;
const LIMIT = 20;

/**
 * One page of the item's revisions, newest first, plus the one before the page's oldest (its diff needs it), and
 * the count. Revisions arrive through the event stream a moment after a write: after one, wait (bounded) for it.
 */
async function loadRevisions(
  collection: string,
  id: string,
  page: number,
  atLeast: number,
  tries: number,
  version?: string,
): Promise<{ list: Rev[]; total: number }> {
  const filter = json(ofItem(collection, id, version));
  const query = { filter, sort: '-id', fields: '*,activity.*', limit: LIMIT + 1, offset: (page - 1) * LIMIT, meta: 'filter_count' as const };
  for (let i = 0; ; i++) {
    const r = await ok(api.GET('/revisions', { params: { query } }));
    const list = r.data as Rev[];
    // the count and the rows are read apart (a revision may land between): the last page's rows are the truth
    const counted = (r.meta as { filter_count?: number } | undefined)?.filter_count ?? 0;
    const total = list.length <= LIMIT ? (page - 1) * LIMIT + list.length : Math.max(counted, page * LIMIT + 1);
    if (total >= atLeast || i >= tries) return { list, total };
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** The item's revisions; only those saved to a content version when `version` (its id) is given. */
const ofItem = (collection: string, id: string, version?: string) => ({
  _and: [{ collection: { _eq: collection } }, { item: { _eq: id } }, ...(version ? [{ version: { _eq: version } }] : [])],
});

/**
 * The item's history, newest first and paged (any length): who and when, one revision against the one before or
 * against the current item, and restore of all or chosen fields.
 */
export function ItemHistory(p: {
  collection: string;
  id: string;
  primaryKey: string;
  tick: number;
  /** The item as it is now (undefined while loading or when it cannot be read). */
  current?: Data;
  /** The user may update the item (else no restore). */
  mayRestore: boolean;
  /** After a restore, with the number of the revision restored. */
  onRestored: (revision: number) => void;
  /** A content version chosen: only its revisions (the saves to it), named in the heading. */
  version?: { id: string; label: string };
}) {
  const { collection, id } = p;
  const seen = useRef(0);
  const [page, setPage] = useState(1);
  const shownTick = useRef(p.tick);
  if (shownTick.current !== p.tick) {
    shownTick.current = p.tick;
    if (page !== 1) setPage(1);
  }
  // another version chosen: its list starts afresh (no wait for a revision counted in the other list)
  const listed = useRef(p.version?.id);
  const revs = useAsync(async () => {
    const switched = listed.current !== p.version?.id;
    listed.current = p.version?.id;
    if (switched) seen.current = 0;
    // A just-created item's first revision may still be on its way: a short bounded wait for it too.
    const r = await loadRevisions(collection, id, page, p.tick > 0 && !switched ? seen.current + 1 : 1, switched ? 0 : p.tick > 0 ? 30 : 10, p.version?.id);
    seen.current = r.total;
    return { ...r, page };
  }, [collection, id, p.tick, page, p.version?.id]);
  // a revision of this item recorded by anyone (another user, another tab) shows up at once
  useRevisionStream(ofItem(collection, id, p.version?.id), revs.reload);
  const [selected, setSelected] = useState<number>();
  const [against, setAgainst] = useState<'before' | 'current'>('before');
  const [error, setError] = useState<string>();
  const who = useWho((revs.value?.list ?? []).map((r) => r.activity?.user));
  const all = revs.value?.list ?? [];
  const list = all.slice(0, LIMIT);
  const nested = useNestedChildren(
    list.map((r) => r.id as number),
    p.tick,
  );
  const total = revs.value?.total ?? 0;
  // numbers from the page the list was read for (the page asked for may still be loading)
  const shownPage = revs.value?.page ?? page;
  const numberAt = (i: number) => total - (shownPage - 1) * LIMIT - i;
  const pages = Math.max(1, Math.ceil(total / LIMIT));
  const found = list.findIndex((r) => r.id === selected);
  const index = found >= 0 ? found : 0;
  const rev = list[index];
  const previous = all[index + 1];

  const restore = async (n: number, values: Data) => {
    setError(undefined);
    try {
      await ok(api.PATCH('/items/{collection}/{id}', { params: { path: { collection, id } }, body: values }));
      setSelected(undefined);
      p.onRestored(n);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="history" aria-labelledby="history-h">
      <h2 id="history-h">{p.version ? `History of version ${p.version.label}` : 'History'}</h2>
      {revs.error && <Alert>{revs.error.message}</Alert>}
      {error && <Alert>{error}</Alert>}
      {revs.value && total === 0 && <Empty>No revision of this item (or none your role may read).</Empty>}
      {total > 0 && (
        <p>
          {total} revisions, newest first. Page {shownPage} of {pages}.
        </p>
      )}
      <ol aria-label="Revisions, newest first">
        {list.map((r, i) => (
          <li key={r.id} aria-current={i === index ? 'true' : undefined}>
            <strong>
              Revision {numberAt(i)}: {r.activity?.action ?? 'change'}
            </strong>{' '}
            by {who(r.activity?.user)},{' '}
            <time dateTime={r.activity?.timestamp}>{r.activity?.timestamp ? new Date(r.activity.timestamp).toLocaleString() : '—'}</time>{' '}
            <button type="button" class="secondary" aria-pressed={i === index} onClick={() => setSelected(r.id as number)}>
              Show changes of revision {numberAt(i)}
            </button>
            <NestedChanges rows={nested.value?.get(r.id as number)} revision={`Revision ${numberAt(i)}`} />
          </li>
        ))}
      </ol>
      {pages > 1 && (
        <nav class="pager" aria-label="Revision pages">
          <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer revisions
          </button>
          <button type="button" class="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older revisions
          </button>
        </nav>
      )}
      {rev && (
        <>
          <fieldset>
            <legend>Compare revision {numberAt(index)} with</legend>
            <div class="checks">
              <label>
                <input type="radio" name="against" checked={against === 'before'} onChange={() => setAgainst('before')} /> the revision before
              </label>
              <label>
                <input type="radio" name="against" checked={against === 'current'} onChange={() => setAgainst('current')} disabled={!p.current} /> the current
                item
              </label>
            </div>
          </fieldset>
          {against === 'current' && p.current ? (
            <RevisionDiff
              caption={`Revision ${numberAt(index)} against the current item`}
              before={rev.data as Data | null}
              after={p.current}
              afterLabel="Current item"
            />
          ) : (
            <RevisionDiff
              caption={`Revision ${numberAt(index)} against ${previous ? `revision ${numberAt(index + 1)}` : 'nothing (created)'}`}
              before={(previous?.data ?? null) as Data | null}
              after={rev.data as Data | null}
            />
          )}
          {p.mayRestore && rev.data && p.current && (
            <RestoreFields
              number={numberAt(index)}
              data={rev.data as Data}
              current={p.current}
              primaryKey={p.primaryKey}
              onRestore={(values) => restore(numberAt(index), values)}
            />
          )}
        </>
      )}
      <HistoryTools
        collection={collection}
        id={id}
        revisions={list.map((r, i) => ({ id: r.id as number, number: numberAt(i) }))}
        mayRestore={p.mayRestore}
        onRestored={p.onRestored}
      />
    </section>
  );
}
