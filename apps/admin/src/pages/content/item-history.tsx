import { useRef, useState } from 'preact/hooks';
import { api, json, ok, type Revision } from '../../api/client';
import { useMeOrThrow } from '../../session/session';
import { Alert, Empty } from '../../ui/page';
import { useAsync } from '../../ui/use-async';
import { RevisionDiff } from './revision-diff';

type Rev = Revision & { activity?: { action?: string; user?: string | null; timestamp?: string } };

/** Revisions arrive through the event stream a moment after a write: after one, wait (bounded) for the new one. */
async function loadRevisions(collection: string, id: string, atLeast: number, tries: number): Promise<Rev[]> {
  const filter = json({ _and: [{ collection: { _eq: collection } }, { item: { _eq: id } }] });
  for (let i = 0; ; i++) {
    const list = (await ok(api.GET('/revisions', { params: { query: { filter, sort: 'id', fields: '*,activity.*', limit: 200 } } }))).data as Rev[];
    if (list.length >= atLeast || i >= tries) return list;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Who: "you", the user's e-mail (administrators can look users up), or the id. */
function useWho(revs: Rev[] | undefined) {
  const me = useMeOrThrow();
  const ids = [...new Set((revs ?? []).map((r) => r.activity?.user).filter((u): u is string => !!u && u !== me.id))];
  const users = useAsync(async () => {
    if (!me.admin || ids.length === 0) return new Map<string, string>();
    const r = await ok(api.GET('/users', { params: { query: { filter: json({ id: { _in: ids } }), fields: 'id,email', limit: -1 } } }));
    return new Map((r.data as { id: string; email: string }[]).map((u) => [u.id, u.email]));
  }, [ids.join(',')]);
  return (u: string | null | undefined) => (!u ? 'the system' : u === me.id ? `you (${me.email})` : (users.value?.get(u) ?? u));
}

/** The item's history: its revisions in time order (who, when), the diff of one against the one before, restore. */
export function ItemHistory({
  collection,
  id,
  primaryKey,
  tick,
  mayRestore,
  onRestored,
}: {
  collection: string;
  id: string;
  primaryKey: string;
  tick: number;
  /** The user may update the item (else no restore button). */
  mayRestore: boolean;
  /** After a restore, with the number of the revision restored. */
  onRestored: (revision: number) => void;
}) {
  const seen = useRef(0);
  const revs = useAsync(async () => {
    // A just-created item's first revision may still be on its way: a short bounded wait for it too.
    const list = await loadRevisions(collection, id, tick > 0 ? seen.current + 1 : 1, tick > 0 ? 30 : 10);
    seen.current = list.length;
    return list;
  }, [collection, id, tick]);
  const [selected, setSelected] = useState<number>();
  const [error, setError] = useState<string>();
  const who = useWho(revs.value);
  const list = revs.value ?? [];
  const index = selected !== undefined ? list.findIndex((r) => r.id === selected) : list.length - 1;
  const current = index >= 0 ? list[index] : undefined;

  const restore = async (rev: Rev) => {
    setError(undefined);
    const data = { ...(rev.data as Record<string, unknown>) };
    delete data[primaryKey];
    try {
      await ok(api.PATCH('/items/{collection}/{id}', { params: { path: { collection, id } }, body: data }));
      setSelected(undefined);
      onRestored(list.indexOf(rev) + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <section class="history" aria-labelledby="history-h">
      <h2 id="history-h">History</h2>
      {revs.error && <Alert>{revs.error.message}</Alert>}
      {error && <Alert>{error}</Alert>}
      {revs.value && list.length === 0 && <Empty>No revision of this item (or none your role may read).</Empty>}
      <ol aria-label="Revisions, oldest first">
        {list.map((r, i) => (
          <li key={r.id} aria-current={i === index ? 'true' : undefined}>
            <strong>
              Revision {i + 1}: {r.activity?.action ?? 'change'}
            </strong>{' '}
            by {who(r.activity?.user)},{' '}
            <time dateTime={r.activity?.timestamp}>{r.activity?.timestamp ? new Date(r.activity.timestamp).toLocaleString() : '—'}</time>{' '}
            <button type="button" class="secondary" aria-pressed={i === index} onClick={() => setSelected(r.id as number)}>
              Show changes of revision {i + 1}
            </button>
          </li>
        ))}
      </ol>
      {current && (
        <>
          <RevisionDiff
            caption={`Revision ${index + 1} against ${index > 0 ? `revision ${index}` : 'nothing (created)'}`}
            before={(index > 0 ? list[index - 1].data : null) as Record<string, unknown> | null}
            after={current.data as Record<string, unknown> | null}
          />
          {mayRestore && current.data && index < list.length - 1 && (
            <button type="button" onClick={() => restore(current)}>
              Restore revision {index + 1}
            </button>
          )}
        </>
      )}
    </section>
  );
}
