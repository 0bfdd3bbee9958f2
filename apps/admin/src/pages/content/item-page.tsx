import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { useCollection } from '../../data/collections';
import { navigate } from '../../router/router';
import { Link } from '../../router/link';
import { ConfirmButton } from '../../ui/confirm-button';
import { Alert, Page } from '../../ui/page';
import { useAsync } from '../../ui/use-async';
import { ItemForm } from './item-form';
import { ItemHistory } from './item-history';

type Item = Record<string, unknown>;

/** One item: its form (create when id is "+"), delete, and its history with diffs and restore. */
export function ItemPage({ collection, id }: { collection: string; id: string }) {
  const isNew = id === '+';
  const meta = useCollection(collection);
  const item = useAsync(
    async () => (isNew ? undefined : ((await ok(api.GET('/items/{collection}/{id}', { params: { path: { collection, id } } }))).data as Item)),
    [collection, id],
  );
  const [notice, setNotice] = useState<string>();
  const [historyTick, setHistoryTick] = useState(0);
  const [error, setError] = useState<string>();

  const save = async (data: Item) => {
    setNotice(undefined);
    if (isNew) {
      const created = (await ok(api.POST('/items/{collection}', { params: { path: { collection } }, body: data }))).data as Item;
      navigate(`/content/${collection}/${encodeURIComponent(String(created[meta.value?.primary_key ?? 'id']))}`, { replace: true });
      return;
    }
    await ok(api.PATCH('/items/{collection}/{id}', { params: { path: { collection, id } }, body: data }));
    setNotice('Saved. The change is recorded as a new revision.');
    item.reload();
    setHistoryTick((n) => n + 1);
  };
  const remove = async () => {
    try {
      await ok(api.DELETE('/items/{collection}/{id}', { params: { path: { collection, id } } }));
      navigate(`/content/${collection}`);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const title = isNew ? `New item in ${collection}` : `Item ${id} of ${collection}`;
  return (
    <Page title={title}>
      <p>
        <Link to={`/content/${collection}`}>Back to {collection}</Link>
      </p>
      {(meta.error || item.error) && <Alert>{(meta.error ?? item.error)!.message}</Alert>}
      {error && <Alert>{error}</Alert>}
      {notice && <Alert kind="success">{notice}</Alert>}
      <div class={isNew ? '' : 'cols'}>
        <div>
          {meta.value && (isNew || item.value) && (
            <ItemForm collection={meta.value} item={item.value} submitLabel={isNew ? 'Create item' : 'Save item'} onSubmit={save} />
          )}
          {!isNew && item.value && (
            <p>
              <ConfirmButton label="Delete item" question="Delete this item?" confirmLabel="Yes, delete the item" onConfirm={remove} />
            </p>
          )}
        </div>
        {!isNew && meta.value && (
          <ItemHistory
            collection={collection}
            id={id}
            primaryKey={meta.value.primary_key}
            tick={historyTick}
            onRestored={() => {
              setNotice('Restored. The old values were written back as a new revision.');
              item.reload();
              setHistoryTick((n) => n + 1);
            }}
          />
        )}
      </div>
    </Page>
  );
}
