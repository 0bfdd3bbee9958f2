import { useMemo, useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useCollection } from '../../data/collections';
import { useCan } from '../../session/permissions';
import { notFoundMessage } from './not-found';
import { navigate, withQuery } from '../../router/router';
import { Link } from '../../router/link';
import { Field, fieldId } from '../../ui/field';
import { Alert, Empty, Page } from '../../ui/page';
import { Pager, pageOf } from '../../ui/pager';
import { TableScroll } from '../../ui/table';
import { useAsync } from '../../ui/use-async';
import { showValue } from './values';

const LIMIT = 25;
const MAX_COLUMNS = 6;
type Item = Record<string, unknown>;

/** The items of one collection: search, sort by a column (click its header), paging. */
export function ItemsPage({ collection, query }: { collection: string; query: URLSearchParams }) {
  const searchId = useMemo(() => fieldId('item-search'), []);
  const meta = useCollection(collection);
  const can = useCan();
  const page = pageOf(query);
  const search = query.get('search') ?? '';
  const pk = meta.value?.primary_key ?? 'id';
  const sort = query.get('sort') ?? pk;
  const [draft, setDraft] = useState(search);
  const items = useAsync(async () => {
    const r = await ok(
      api.GET('/items/{collection}', {
        params: { path: { collection }, query: { limit: LIMIT, page, sort, meta: 'filter_count', ...(search ? { search } : {}) } },
      }),
    );
    return { list: r.data as Item[], count: (r.meta as { filter_count?: number } | undefined)?.filter_count };
  }, [collection, page, search, sort]);
  const columns = (meta.value?.fields ?? []).map((f) => f.field).slice(0, MAX_COLUMNS);
  const sortState = (c: string) => (sort === c ? 'ascending' : sort === `-${c}` ? 'descending' : undefined);

  return (
    <Page
      title={`Items of ${collection}`}
      actions={
        can('create', collection) && (
          <Link to={`/content/${collection}/+`} class="button">
            New item
          </Link>
        )
      }
    >
      <p>
        <Link to="/content">All collections</Link>
      </p>
      <form
        class="toolbar"
        role="search"
        aria-label={`Find items of ${collection}`}
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withQuery({ search: draft, page: undefined }));
        }}
      >
        <Field id={searchId} label={`Search ${collection}`} type="search" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      {meta.error && <Alert>{notFoundMessage(meta.error, `Collection “${collection}”`)}</Alert>}
      {!meta.error && items.error && <Alert>{items.error.message}</Alert>}
      {items.value?.list.length === 0 && <Empty>{search ? 'No item matches the search.' : 'No item here yet (or none your role may read).'}</Empty>}
      {items.value && items.value.list.length > 0 && (
        <TableScroll>
          <table>
            <caption class="sr-only">
              Items of {collection}, sorted by {sort.replace(/^-/, '')}
            </caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col" aria-sort={sortState(c) ?? 'none'}>
                    <button type="button" onClick={() => navigate(withQuery({ sort: sort === c ? `-${c}` : c, page: undefined }))}>
                      {c} {sortState(c) === 'ascending' ? '▲' : sortState(c) === 'descending' ? '▼' : ''}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.value.list.map((item) => (
                <tr key={String(item[pk])}>
                  {columns.map((c) => (
                    <td key={c}>
                      {c === pk ? (
                        <Link to={`/content/${collection}/${encodeURIComponent(String(item[pk]))}`}>{`Open ${String(item[pk])}`}</Link>
                      ) : (
                        showValue(item[c])
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager page={page} limit={LIMIT} count={items.value?.count} label={`Items of ${collection}`} />
    </Page>
  );
}
