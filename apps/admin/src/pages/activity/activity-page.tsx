import { useMemo, useRef, useState } from 'preact/hooks';
import { api, json, ok, type Revision } from '../../api/client';
import { useRevisionStream } from '../../data/revision-stream';
import { usersMatching, useWho } from '../../data/user-names';
import { Link } from '../../router/link';
import { useMeOrThrow } from '../../session/session';
import { Field, fieldId } from '../../ui/field';
import { FilterForm } from '../../ui/filter-form';
import { Alert, Empty, Page } from '../../ui/page';
import { Pager, pageOf } from '../../ui/pager';
import { Table } from '../../ui/table';
import { useAsync } from '../../ui/use-async';
import { FailedPromotes } from './failed-promotes';

const LIMIT = 25;
type Rev = Revision & { activity?: { action?: string; user?: string | null; timestamp?: string } };
const FILTERS = ['collection', 'item', 'user', 'from', 'to', 'search'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The filters of the URL as the revisions query language's filter. */
function toFilter(f: Filters, users?: string[]): Record<string, unknown> | undefined {
  const and: Record<string, unknown>[] = [];
  if (f.collection) and.push({ collection: { _eq: f.collection } });
  if (f.item) and.push({ item: { _eq: f.item } });
  if (users) and.push({ activity: { user: { _in: users } } });
  if (f.from) and.push({ activity: { timestamp: { _gte: new Date(`${f.from}T00:00:00`).toISOString() } } });
  if (f.to) and.push({ activity: { timestamp: { _lt: new Date(new Date(`${f.to}T00:00:00`).getTime() + 86_400_000).toISOString() } } });
  return and.length ? { _and: and } : undefined;
}

/**
 * Every revision the signed-in user may read (the API filters by permission), newest first, with filters and
 * search. Paging asks for one row more than a page instead of a count, so the first page stays fast at
 * millions of revisions; the time to the first page is shown.
 */
export function ActivityPage({ query }: { query: URLSearchParams }) {
  const ids = useMemo(() => Object.fromEntries(FILTERS.map((f) => [f, fieldId(`activity-${f}`)])) as Filters, []);
  const applied = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Filters;
  const [draft, setDraft] = useState<Filters>(applied);
  const page = pageOf(query);
  const started = useRef(performance.now());
  const [firstMs, setFirstMs] = useState<number>();
  const me = useMeOrThrow();
  const revs = useAsync(async () => {
    // a user by name or e-mail: the ids it means first (none: nothing matches)
    const users = applied.user ? await usersMatching(applied.user, me) : undefined;
    if (users?.length === 0) return { list: [] as Rev[], hasMore: false };
    const filter = toFilter(applied, users);
    const r = await ok(
      api.GET('/revisions', {
        params: {
          query: {
            fields: 'id,collection,item,activity.action,activity.user,activity.timestamp',
            sort: '-id',
            limit: LIMIT + 1,
            offset: (page - 1) * LIMIT,
            ...(filter ? { filter: json(filter) } : {}),
            ...(applied.search ? { search: applied.search } : {}),
          },
        },
      }),
    );
    const list = r.data as Rev[];
    if (firstMs === undefined) setFirstMs(Math.round(performance.now() - started.current));
    return { list: list.slice(0, LIMIT), hasMore: list.length > LIMIT };
  }, [page, ...FILTERS.map((f) => applied[f])]);
  // the first page follows new revisions as they are recorded (the stream narrowed to the collection and item asked
  // for), read again at most once a second however busy the history is
  useRevisionStream(page === 1 ? (toFilter({ ...applied, user: '', from: '', to: '', search: '' }) ?? {}) : null, revs.reload, 1000);
  const who = useWho((revs.value?.list ?? []).map((r) => r.activity?.user));
  const set = (k: keyof Filters) => (e: { currentTarget: HTMLInputElement }) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [k]: value }));
  };

  return (
    <Page title="Activity">
      <FilterForm label="Filter revisions" draft={draft}>
        <Field id={ids.collection} label="Collection" value={draft.collection} onInput={set('collection')} />
        <Field id={ids.item} label="Item" value={draft.item} onInput={set('item')} />
        <Field id={ids.user} label="User (name or e-mail)" value={draft.user} onInput={set('user')} />
        <Field id={ids.from} label="From (date)" type="date" value={draft.from} onInput={set('from')} />
        <Field id={ids.to} label="To (date)" type="date" value={draft.to} onInput={set('to')} />
        <Field id={ids.search} label="Search revisions" type="search" value={draft.search} onInput={set('search')} />
      </FilterForm>
      {firstMs !== undefined && (
        <p class="timing" data-testid="first-page-ms">
          First page in {firstMs} ms
        </p>
      )}
      <FailedPromotes collection={applied.collection} item={applied.item} />
      {revs.error && <Alert>{revs.error.message}</Alert>}
      {revs.value?.list.length === 0 && <Empty>No revision matches (only revisions of collections your role may read are shown).</Empty>}
      {revs.value && revs.value.list.length > 0 && (
        <Table caption="Revisions, newest first" hideCaption columns={['Revision', 'When', 'Action', 'Collection', 'Item', 'User']}>
          {revs.value.list.map((r) => (
            <tr key={r.id}>
              <td>{r.id}</td>
              <td>{r.activity?.timestamp ? new Date(r.activity.timestamp).toLocaleString() : '—'}</td>
              <td>{r.activity?.action ?? '—'}</td>
              <td>{r.collection}</td>
              <td>
                {!r.collection || r.collection.startsWith('vellum_') ? (
                  r.item
                ) : (
                  <Link to={`/content/${r.collection}/${encodeURIComponent(String(r.item))}`}>{r.item}</Link>
                )}
              </td>
              <td>{who(r.activity?.user)}</td>
            </tr>
          ))}
        </Table>
      )}
      <Pager page={page} limit={LIMIT} hasMore={revs.value?.hasMore} label="Revisions" />
    </Page>
  );
}
