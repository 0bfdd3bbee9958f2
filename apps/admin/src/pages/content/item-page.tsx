import { useRef, useState } from 'preact/hooks';
import { api, ApiError, ok, okWithVersion } from '../../api/client';
import { useCollection, useCollections } from '../../data/collections';
import { relationalFields, useRelations } from '../../data/relations';
import { navigate } from '../../router/router';
import { Link } from '../../router/link';
import { useCan } from '../../session/permissions';
import { useMeOrThrow } from '../../session/session';
import { ConfirmButton } from '../../ui/confirm-button';
import { Alert, Page } from '../../ui/page';
import { useAsync } from '../../ui/use-async';
import { ConflictPanel } from './conflict-panel';
import { ItemForm } from './item-form';
import { patch, saveChanges, type Conflict } from './save-item';
import { ItemHistory } from './item-history';
import { lastState } from './last-state';
import { notFoundMessage } from './not-found';
import { VersionBar } from './versions/version-bar';
import { versionLabel, versions, type Version } from './versions/version-calls';
import { VersionCompare } from './versions/version-compare';
import { VersionSchedule } from './versions/version-schedule';

type Item = Record<string, unknown>;

/** One item: its form (create when id is "+"), delete, and its history with diffs and restore; a deleted one can be undeleted. */
export function ItemPage({ collection, id }: { collection: string; id: string }) {
  const isNew = id === '+';
  const meta = useCollection(collection);
  const relations = useRelations(!!useMeOrThrow().admin);
  const collections = useCollections();
  const can = useCan();
  // the version the item was read at (its ETag): saves and deletes are conditional on it
  const version = useRef<string>();
  // a content version chosen (collections with versioning): the form shows and saves the item as it has it
  const [chosen, setChosen] = useState<Version>();
  const item = useAsync(async () => {
    if (isNew) return undefined;
    // the version's children and junction rows come with it (the form lists them as the version has them)
    const children = relations.value ? relationalFields(collection, relations.value).filter((f) => f.kind !== 'm2o') : [];
    if (chosen)
      return versions.read(
        collection,
        id,
        chosen.key,
        children.map((f) => f.field),
      );
    const r = await okWithVersion(api.GET('/items/{collection}/{id}', { params: { path: { collection, id } } }));
    version.current = r.etag;
    return (r.data as { data: Item }).data;
  }, [collection, id, chosen?.key, !!chosen && !!relations.value]);
  const [conflict, setConflict] = useState<Conflict>();
  // an unreadable item: deleted (its history says so) or not there
  const gone = useAsync(async () => (item.error?.code === 'FORBIDDEN' && meta.value ? lastState(collection, id) : undefined), [item.error, meta.value]);
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
    if (chosen) {
      if ((await versions.save(chosen.id, item.value!, data)) === 'unchanged') return setNotice('Nothing changed: nothing was saved.');
      return saved(`Saved to version ${versionLabel(chosen)}. The live item is unchanged.`);
    }
    const result = await saveChanges(collection, id, item.value!, version.current, data);
    if (result === 'unchanged') return setNotice('Nothing changed: nothing was saved.');
    if (result !== 'saved') return setConflict(result);
    saved();
  };
  const saved = (message = 'Saved. The change is recorded as a new revision.') => {
    setConflict(undefined);
    setNotice(message);
    item.reload();
    setHistoryTick((n) => n + 1);
  };
  const resolve = async (values: Item) => {
    setError(undefined);
    try {
      if (Object.keys(values).length) await patch(collection, id, values, conflict?.etag);
      saved();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const remove = async () => {
    try {
      const ifMatch = version.current ? { 'If-Match': version.current } : {};
      await ok(api.DELETE('/items/{collection}/{id}', { params: { path: { collection, id } }, headers: ifMatch }));
      navigate(`/content/${collection}`);
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 'PRECONDITION_FAILED'
          ? 'Someone changed this item after you opened it: nothing was deleted. Look at it again first.'
          : (err as Error).message,
      );
      if (err instanceof ApiError && err.code === 'PRECONDITION_FAILED') item.reload();
    }
  };
  const undelete = async () => {
    setError(undefined);
    try {
      await ok(api.POST('/items/{collection}', { params: { path: { collection } }, body: gone.value!.data! }));
      setNotice(`Restored from revision ${gone.value!.revision}: the item is back with the values it had when it was deleted.`);
      item.reload();
      setHistoryTick((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const title = isNew ? `New item in ${collection}` : `Item ${id} of ${collection}`;
  const mayWrite = isNew ? can('create', collection) : can('update', collection);
  // kept while a version is chosen even when it cannot be read (deleted elsewhere): the way back to Main
  const versioning = !isNew && meta.value?.meta?.versioning === true && (!item.error || !!chosen);
  return (
    <Page title={title}>
      <p>
        <Link to={`/content/${collection}`}>Back to {collection}</Link>
      </p>
      {meta.error && <Alert>{notFoundMessage(meta.error, `Collection “${collection}”`)}</Alert>}
      {!meta.error && item.error && !gone.value?.deleted && gone.value && <Alert>{notFoundMessage(item.error, `Item ${id} of ${collection}`)}</Alert>}
      {!meta.error && item.error && item.error.code !== 'FORBIDDEN' && <Alert>{item.error.message}</Alert>}
      {gone.value?.deleted && (
        <div class="alert alert-info" role="status">
          <p>This item was deleted.</p>
          {gone.value.data && can('create', collection) && (
            <button type="button" onClick={undelete}>
              Undelete item
            </button>
          )}
        </div>
      )}
      {error && <Alert>{error}</Alert>}
      {conflict && <ConflictPanel conflict={conflict} onResolve={resolve} onDiscard={() => (setConflict(undefined), item.reload())} />}
      {notice && <Alert kind="success">{notice}</Alert>}
      {versioning && (
        <VersionBar
          collection={collection}
          id={id}
          chosen={chosen}
          onChoose={(v) => (setNotice(undefined), setChosen(v))}
          mayWrite={!!can('update', collection)}
        />
      )}
      {versioning && chosen && (
        <VersionSchedule key={chosen.id} version={chosen} mayWrite={!!can('update', collection)} onDone={() => (item.reload(), setHistoryTick((n) => n + 1))} />
      )}
      <div class={isNew ? '' : 'cols'}>
        <div>
          {meta.value && (isNew || item.value) && (relations.value || relations.error) && (collections.value || collections.error) && (
            <ItemForm
              collection={meta.value}
              item={item.value}
              busy={!isNew && item.loading}
              submitLabel={isNew ? 'Create item' : chosen ? 'Save to version' : 'Save item'}
              onSubmit={mayWrite ? save : undefined}
              relational={relations.value ? relationalFields(collection, relations.value) : []}
              collections={collections.value}
            />
          )}
          {versioning && chosen && (
            <VersionCompare
              key={chosen.id}
              version={chosen}
              primaryKey={meta.value!.primary_key}
              mayWrite={!!can('update', collection)}
              onPromoted={(fields) => (setNotice(`Promoted ${fields.join(', ')} from version ${versionLabel(chosen)} to the live item.`), item.reload())}
            />
          )}
          {!isNew && item.value && !chosen && can('delete', collection) && (
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
            current={item.value}
            mayRestore={!!can('update', collection) && !!item.value && !chosen}
            version={chosen && { id: chosen.id, label: versionLabel(chosen) }}
            onRestored={(n) => {
              setNotice(`Restored from revision ${n}. The old values were written back as a new revision.`);
              item.reload();
              setHistoryTick((t) => t + 1);
            }}
          />
        )}
      </div>
    </Page>
  );
}
