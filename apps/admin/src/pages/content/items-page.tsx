import { useMemo, useState } from 'preact/hooks';
import { api, json, ok } from '../../api/client';
import { useCollection } from '../../data/collections';
import { navigate, withQuery } from '../../router/router';
import { Link } from '../../router/link';
import { useCan } from '../../session/permissions';
import { useMeOrThrow } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field, Select, fieldId } from '../../ui/field';
import { Alert, Empty, Page } from '../../ui/page';
import { Pager, pageOf } from '../../ui/pager';
import { useAsync } from '../../ui/use-async';
import { ItemsTable } from './items-table';
import { ColumnPicker } from './column-picker';
import { notFoundMessage } from './not-found';

const LIMIT = 25;
const DEFAULT_COLUMNS = 6;
const TEXT_TYPES = ['string', 'text', 'uuid'];
type Item = Record<string, unknown>;

/** The items of one collection: search, filter by a field, choose the columns, sort, paging; select rows to delete or export them. */
export function ItemsPage({ collection, query }: { collection: string; query: URLSearchParams }) {
  const ids = useMemo(() => ({ search: fieldId('item-search'), field: fieldId('filter-field'), value: fieldId('filter-value') }), []);
  const meta = useCollection(collection);
  const can = useCan();
  const me = useMeOrThrow();
  const page = pageOf(query);
  const search = query.get('search') ?? '';
  const [ff, fv] = [query.get('ff') ?? '', query.get('fv') ?? ''];
  const pk = meta.value?.primary_key ?? 'id';
  const sort = query.get('sort') ?? pk;
  const [draft, setDraft] = useState({ search, ff, fv });
  const [selected, setSelected] = useState(new Set<string>());
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();
  const field = meta.value?.fields.find((f) => f.field === ff);
  const filter = field && fv ? { [ff]: TEXT_TYPES.includes(field.type) ? { _icontains: fv } : { _eq: fv } } : undefined;
  const items = useAsync(async () => {
    const q = { limit: LIMIT, page, sort, meta: 'filter_count' as const, ...(search ? { search } : {}), ...(filter ? { filter: json(filter) } : {}) };
    const r = await ok(api.GET('/items/{collection}', { params: { path: { collection }, query: q } }));
    return { list: r.data as Item[], count: (r.meta as { filter_count?: number } | undefined)?.filter_count };
  }, [collection, page, search, sort, JSON.stringify(filter)]);
  const fields = (meta.value?.fields ?? []).map((f) => f.field);
  const chosen = query
    .get('cols')
    ?.split(',')
    .filter((c) => fields.includes(c));
  const columns = chosen?.length ? chosen : fields.slice(0, DEFAULT_COLUMNS);
  const select = (keys: string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const k of keys)
        if (on) next.add(k);
        else next.delete(k);
      return next;
    });
  const picked = (items.value?.list ?? []).filter((i) => selected.has(String(i[pk])));
  const removeSelected = async () => {
    setError(undefined);
    try {
      for (const k of selected) await ok(api.DELETE('/items/{collection}/{id}', { params: { path: { collection, id: k } } }));
      setNotice(`${selected.size} ${selected.size === 1 ? 'item' : 'items'} deleted.`);
      setSelected(new Set());
      items.reload();
    } catch (err) {
      setError((err as Error).message);
      items.reload();
    }
  };
  const removeCollection = async () => {
    try {
      await ok(api.DELETE('/collections/{name}', { params: { path: { name: collection } } }));
      navigate('/content');
    } catch (err) {
      setError((err as Error).message);
    }
  };
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
        {me.admin && (
          <>
            {' · '}
            <Link to={`/data-model/${collection}`}>Data model of {collection}</Link>
          </>
        )}
      </p>
      <form
        class="toolbar"
        role="search"
        aria-label={`Find items of ${collection}`}
        onSubmit={(e) => {
          e.preventDefault();
          navigate(withQuery({ search: draft.search, ff: draft.fv ? draft.ff : undefined, fv: draft.ff ? draft.fv : undefined, page: undefined }));
        }}
      >
        <Field
          id={ids.search}
          label={`Search ${collection}`}
          type="search"
          value={draft.search}
          onInput={(e) => setDraft({ ...draft, search: e.currentTarget.value })}
        />
        <Select
          id={ids.field}
          label="Filter by field"
          value={draft.ff}
          onChange={(e) => setDraft({ ...draft, ff: e.currentTarget.value })}
          options={[{ value: '', label: 'No field' }, ...fields.map((f) => ({ value: f, label: f }))]}
        />
        <Field id={ids.value} label="Field value (contains)" value={draft.fv} onInput={(e) => setDraft({ ...draft, fv: e.currentTarget.value })} />
        <button type="submit">Search</button>
      </form>
      {meta.value && <ColumnPicker fields={fields} columns={columns} />}
      {meta.error && <Alert>{notFoundMessage(meta.error, `Collection “${collection}”`)}</Alert>}
      {!meta.error && items.error && <Alert>{items.error.message}</Alert>}
      {error && <Alert>{error}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      {selected.size > 0 && (
        <div class="actions" role="group" aria-label="Selected items">
          <span>{selected.size} selected</span>
          <a
            class="button secondary"
            download={`${collection}.json`}
            href={`data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(picked, null, 2))}`}
          >
            Export selected (JSON)
          </a>
          {can('delete', collection) && (
            <ConfirmButton label="Delete selected" question={`Delete ${selected.size} selected?`} confirmLabel="Yes, delete them" onConfirm={removeSelected} />
          )}
        </div>
      )}
      {items.value?.list.length === 0 && <Empty>{search || filter ? 'No item matches.' : 'No item here yet (or none your role may read).'}</Empty>}
      {items.value && items.value.list.length > 0 && (
        <ItemsTable collection={collection} items={items.value.list} columns={columns} pk={pk} sort={sort} selected={selected} onSelect={select} />
      )}
      <Pager page={page} limit={LIMIT} count={items.value?.count} label={`Items of ${collection}`} />
      {me.admin && meta.value && (
        <section aria-labelledby="danger-h">
          <h2 id="danger-h">Delete the collection</h2>
          <ConfirmButton
            label={`Delete the collection ${collection}`}
            question={`Delete ${collection} with all its items for good?`}
            confirmLabel={`Yes, delete ${collection}`}
            onConfirm={removeCollection}
          />
        </section>
      )}
    </Page>
  );
}
