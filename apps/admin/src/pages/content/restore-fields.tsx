import { useEffect, useState } from 'preact/hooks';
import { same } from './revision-diff';

/**
 * Restore a revision, all of it or the chosen fields only: one checkbox per field whose value differs from the
 * current item (all chosen at first). Nothing to restore when the revision equals the current item.
 */
export function RestoreFields({
  number,
  data,
  current,
  primaryKey,
  onRestore,
}: {
  number: number;
  data: Record<string, unknown>;
  current: Record<string, unknown>;
  primaryKey: string;
  onRestore: (values: Record<string, unknown>) => Promise<void>;
}) {
  const differing = Object.keys(data).filter((f) => f !== primaryKey && !same(data[f], current[f]));
  const [chosen, setChosen] = useState(new Set(differing));
  useEffect(() => setChosen(new Set(differing)), [number, differing.join(',')]);
  if (differing.length === 0) return <p>Revision {number} has the values the item has now: nothing to restore.</p>;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onRestore(Object.fromEntries(differing.filter((f) => chosen.has(f)).map((f) => [f, data[f]])));
      }}
    >
      <fieldset>
        <legend>Fields to restore from revision {number}</legend>
        <div class="checks">
          {differing.map((f) => (
            <label key={f}>
              <input
                type="checkbox"
                checked={chosen.has(f)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setChosen((s) => {
                    const next = new Set(s);
                    if (on) next.add(f);
                    else next.delete(f);
                    return next;
                  });
                }}
              />{' '}
              Restore {f}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={chosen.size === 0}>
        Restore revision {number}
      </button>
    </form>
  );
}
