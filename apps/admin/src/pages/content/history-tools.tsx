import { useState } from 'preact/hooks';
import { history, type Comparison, type PastItem, type RestoreOutcome } from '../../api/history';
import { Alert } from '../../ui/page';
import { Table } from '../../ui/table';
import { RevisionDiff } from './revision-diff';
import { showValue } from './values';

type Data = Record<string, unknown>;
/** A revision of the page shown, with the number the history gives it. */
export interface Numbered {
  id: number;
  number: number;
}

const label = (r: Numbered) => `Revision ${r.number}`;

/** Any two revisions (or a revision and the item now), field by field, from the compare route. */
function CompareAny({ revisions }: { revisions: Numbered[] }) {
  const [a, setA] = useState<number>();
  const [b, setB] = useState<number | 'live'>('live');
  const [result, setResult] = useState<{ c: Comparison; caption: string }>();
  const [error, setError] = useState<string>();
  const from = a ?? revisions[revisions.length - 1]?.id;
  const name = (id: number | 'live') => (id === 'live' ? 'the current item' : label(revisions.find((r) => r.id === id) ?? { id, number: id }));
  const run = async () => {
    if (from === undefined) return;
    setError(undefined);
    try {
      setResult({ c: await history.compare(from, b), caption: `${name(from)} against ${name(b)}` });
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const only = (side: 'from' | 'to') => (result ? Object.fromEntries(result.c.changed_fields.map((f) => [f, result.c.changes[f]?.[side] ?? null])) : {});
  return (
    <fieldset>
      <legend>Compare any two revisions</legend>
      <label>
        From{' '}
        <select aria-label="Compare from" value={String(from)} onChange={(e) => setA(Number(e.currentTarget.value))}>
          {revisions.map((r) => (
            <option key={r.id} value={String(r.id)}>
              {label(r)}
            </option>
          ))}
        </select>
      </label>{' '}
      <label>
        to{' '}
        <select aria-label="Compare to" value={String(b)} onChange={(e) => setB(e.currentTarget.value === 'live' ? 'live' : Number(e.currentTarget.value))}>
          <option value="live">The current item</option>
          {revisions.map((r) => (
            <option key={r.id} value={String(r.id)}>
              {label(r)}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" class="secondary" onClick={() => void run()}>
        Compare
      </button>
      {error && <Alert>{error}</Alert>}
      {result &&
        (result.c.changed_fields.length === 0 ? (
          <p>{result.caption}: no field differs.</p>
        ) : (
          <RevisionDiff caption={result.caption} before={result.c.from.deleted ? null : only('from')} after={result.c.to.deleted ? null : only('to')} />
        ))}
    </fieldset>
  );
}

/** The item as it was at a chosen time or revision. */
function AsOf({ collection, id, revisions }: { collection: string; id: string; revisions: Numbered[] }) {
  const [time, setTime] = useState('');
  const [shown, setShown] = useState<{ item: PastItem; caption: string }>();
  const [error, setError] = useState<string>();
  const view = async (point: { at: string } | { revision: number }, caption: string) => {
    setError(undefined);
    try {
      setShown({ item: await history.itemAt(collection, id, point), caption });
    } catch (e) {
      setShown(undefined);
      setError((e as Error).message);
    }
  };
  const fields = shown ? Object.keys(shown.item).filter((f) => f !== '$meta') : [];
  // the item's own numbering when the revision is on the page shown, else its id
  const source = (revision: number) => {
    const r = revisions.find((x) => x.id === revision);
    return r ? `from ${label(r)}` : `from the revision with id ${revision}`;
  };
  return (
    <fieldset>
      <legend>View the item as it was</legend>
      <label>
        At <input type="datetime-local" step="1" aria-label="View as of time" value={time} onInput={(e) => setTime(e.currentTarget.value)} />
      </label>{' '}
      <button
        type="button"
        class="secondary"
        disabled={!time}
        onClick={() => void view({ at: new Date(time).toISOString() }, `The item at ${new Date(time).toLocaleString()}`)}
      >
        View at this time
      </button>{' '}
      <select
        aria-label="View as of revision"
        value=""
        onChange={(e) => {
          const r = revisions.find((x) => x.id === Number(e.currentTarget.value));
          if (r) void view({ revision: r.id }, `The item as of ${label(r)}`);
        }}
      >
        <option value="">As of a revision…</option>
        {revisions.map((r) => (
          <option key={r.id} value={String(r.id)}>
            {label(r)}
          </option>
        ))}
      </select>
      {error && <Alert>{error}</Alert>}
      {shown && (
        <Table
          class="as-of"
          caption={`${shown.caption} (${source(shown.item.$meta.revision)}, ${new Date(shown.item.$meta.at).toLocaleString()})`}
          columns={['Field', 'Value']}
        >
          {fields.map((f) => (
            <tr key={f}>
              <th scope="row">{f}</th>
              <td>
                <span class="text">{showValue((shown.item as Data)[f])}</span>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </fieldset>
  );
}

/** Restore a whole revision with a preview first (the API's dry run): what changes, what cannot be restored. */
function RestoreWithPreview({ revisions, onRestored }: { revisions: Numbered[]; onRestored: (n: number) => void }) {
  const [chosen, setChosen] = useState<Numbered>();
  const [preview, setPreview] = useState<RestoreOutcome>();
  const [error, setError] = useState<string>();
  const act = async (r: Numbered, dryRun: boolean) => {
    setError(undefined);
    try {
      const out = await history.restore(r.id, dryRun);
      if (dryRun) setPreview(out);
      else {
        setPreview(undefined);
        onRestored(r.number);
      }
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <fieldset>
      <legend>Restore a revision, with a preview</legend>
      <select
        aria-label="Revision to restore"
        value={chosen ? String(chosen.id) : ''}
        onChange={(e) => {
          const r = revisions.find((x) => x.id === Number(e.currentTarget.value));
          setChosen(r);
          setPreview(undefined);
          if (r) void act(r, true);
        }}
      >
        <option value="">Choose a revision…</option>
        {revisions.map((r) => (
          <option key={r.id} value={String(r.id)}>
            {label(r)}
          </option>
        ))}
      </select>
      {error && <Alert>{error}</Alert>}
      {chosen && preview && (
        <div aria-label="Restore preview" role="region">
          {preview.action === 'none' ? (
            <p>The item already has the values of {label(chosen)}: nothing to restore.</p>
          ) : (
            <p>
              Restoring {label(chosen)} {preview.action === 'create' ? 're-creates the deleted item with' : 'writes back'}: {preview.changed_fields.join(', ')}.
            </p>
          )}
          {preview.skipped.length > 0 && (
            <p>
              Not restored:{' '}
              {preview.skipped.map((s) => `${s.field} (${s.reason === 'dropped' ? 'no longer in the collection' : 'not readable by you'})`).join(', ')}.
            </p>
          )}
          {preview.action !== 'none' && (
            <button type="button" onClick={() => void act(chosen, false)}>
              Confirm restore of {label(chosen)}
            </button>
          )}
        </div>
      )}
    </fieldset>
  );
}

/** Compare any two revisions, view the item as it was, restore with a preview (the history routes of the API). */
export function HistoryTools(p: { collection: string; id: string; revisions: Numbered[]; mayRestore: boolean; onRestored: (n: number) => void }) {
  if (p.revisions.length === 0) return null;
  return (
    <div class="history-tools">
      <CompareAny revisions={p.revisions} />
      <AsOf collection={p.collection} id={p.id} revisions={p.revisions} />
      {p.mayRestore && <RestoreWithPreview revisions={p.revisions} onRestored={p.onRestored} />}
    </div>
  );
}
